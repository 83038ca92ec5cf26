import { editArticle } from '@newsroom/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { insertArticle } from '../../api/test/support/content-fixtures';
import { setUpDashboardApi } from './support/dashboard-test-app';
import { renderDashboard } from './support/render-dashboard';

// The editor's History panel and the 412 prompt's field-by-field merge, against the real API.

const api = await setUpDashboardApi();

async function csrfToken(): Promise<string> {
  const session = await api.api().fetch('/api/v1/auth/session');
  return ((await session.json()) as { csrfToken: string }).csrfToken;
}

/** A save by "someone else" (the API, as the same signed-in admin: a new version all the same). */
async function saveElsewhere(id: string, body: object) {
  const response = await api.api().fetch(`/api/v1/article/${id}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', 'x-csrf-token': await csrfToken() },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
}

async function openEditor(title: string) {
  const article = await insertArticle(api.db, { status: 'draft', title, category: null, section: null });
  const admin = await api.insertAdmin();
  await api.signIn(admin.email);
  return { article, admin };
}

const stored = (id: string) =>
  api.db.selectFrom('articles').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('article history', () => {
  it('lists revisions, compares two side by side and restores one after a confirmation', async () => {
    const { article, admin } = await openEditor('Tram line opens');
    await saveElsewhere(article.id, { title: 'Tram line opens in May' });
    await saveElsewhere(article.id, { title: 'Tram line opens in June' });
    renderDashboard(`/articles/${article.id}`);
    await screen.findByDisplayValue('Tram line opens in June');
    const user = userEvent.setup();
    await user.click(screen.getByText('History'));
    const list = await screen.findByRole('list', { name: 'Revisions' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect(within(list).getAllByText(admin.email)).toHaveLength(2);
    // By default the newest against the one before.
    const diff = await screen.findByRole('region', { name: 'Revision 1 compared with revision 2' });
    expect(within(diff).getByText('Tram line opens in May').tagName).toBe('DEL');
    expect(within(diff).getByText('Tram line opens in June').tagName).toBe('INS');

    await user.click(screen.getByRole('button', { name: 'Restore revision 1' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Restore revision 1?' });
    await user.click(within(confirm).getByRole('button', { name: 'Restore' }));
    await screen.findByDisplayValue('Tram line opens in May');
    expect((await stored(article.id)).title).toBe('Tram line opens in May');
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(3));
  });

  it('pages the history ("Show older", by keyboard) and compares and restores across pages', async () => {
    const { article } = await openEditor('Harbour works');
    const editor = {
      actor: { kind: 'user' as const, id: null, label: 'desk@example.com' },
      source: 'editor' as const,
    };
    for (let i = 1; i <= 23; i++) {
      await editArticle(api.db, article.id, { title: `Harbour works, update ${i}` }, undefined, editor);
    }
    renderDashboard(`/articles/${article.id}`);
    await screen.findByDisplayValue('Harbour works, update 23');
    const user = userEvent.setup();
    await user.click(screen.getByText('History'));
    const list = await screen.findByRole('list', { name: 'Revisions' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(20);
    expect(screen.getByText('Showing the newest 20 of 23.')).toBeTruthy();
    // By keyboard: the button takes Enter, and the focus goes to the first older revision.
    screen.getByRole('button', { name: 'Show older' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(23));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Compare revision 3')));
    expect(screen.queryByRole('button', { name: 'Show older' })).toBeNull();

    // Compare one of each page.
    await user.click(screen.getByLabelText('Compare revision 2'));
    await user.click(screen.getByLabelText('Compare revision 22'));
    const diff = await screen.findByRole('region', { name: 'Revision 2 compared with revision 22' });
    expect(within(diff).getByText('Harbour works, update 2').tagName).toBe('DEL');
    expect(within(diff).getByText('Harbour works, update 22').tagName).toBe('INS');

    // Restore one from the older page: a new revision on top, every page read again, none lost.
    await user.click(screen.getByRole('button', { name: 'Restore revision 1' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Restore revision 1?' });
    await user.click(within(confirm).getByRole('button', { name: 'Restore' }));
    await screen.findByDisplayValue('Harbour works, update 1');
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(24));
    const numbers = within(list)
      .getAllByRole('checkbox')
      .map((box) => Number(box.getAttribute('data-n')));
    expect(numbers).toEqual(Array.from({ length: 24 }, (_, i) => 24 - i));
  });

  it('shows their change against mine on a 412 and saves the fields as chosen, losing nothing', async () => {
    const { article } = await openEditor('Budget vote tonight');
    renderDashboard(`/articles/${article.id}`);
    await screen.findByDisplayValue('Budget vote tonight');
    await saveElsewhere(article.id, { title: 'Budget vote delayed', section: 'Politics' });

    const user = userEvent.setup();
    const title = screen.getByLabelText('Title');
    await user.clear(title);
    await user.type(title, 'Budget vote tonight at 8');
    await user.type(screen.getByLabelText('Category'), 'Council');
    await user.click(await screen.findByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Changed by someone else' });
    const merge = await within(dialog).findByRole('region', { name: 'Their change against mine' });
    // Title: both changed (mine suggested); section: only theirs; category: only mine.
    expect(within(merge).getByRole('radio', { name: 'Keep my title' })).toHaveProperty('checked', true);
    expect(within(merge).getByRole('radio', { name: 'Keep their section' })).toHaveProperty('checked', true);
    await user.click(within(merge).getByRole('radio', { name: 'Keep their title' }));
    await user.click(within(merge).getByRole('button', { name: 'Save merged' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(await stored(article.id)).toMatchObject({
      title: 'Budget vote delayed',
      section: 'Politics',
      category: 'Council',
    });
  });
});
