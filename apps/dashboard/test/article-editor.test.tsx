import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { insertArticle } from '../../api/test/support/content-fixtures';
import { setUpDashboardApi } from './support/dashboard-test-app';
import { renderDashboard } from './support/render-dashboard';

// The editor's field logic against the real API: tags as chips, the slug check, the dirty state and the
// prompt when a save meets a newer version (412).

const api = await setUpDashboardApi();

async function openEditor(seed: Parameters<typeof insertArticle>[1] = {}) {
  const article = await insertArticle(api.db, { status: 'draft', title: 'Ferry timetable changes', ...seed });
  const admin = await api.insertAdmin();
  await api.signIn(admin.email);
  renderDashboard(`/articles/${article.id}`);
  await screen.findByRole('heading', { name: 'Edit article', level: 1 });
  await screen.findByDisplayValue('Ferry timetable changes');
  return article;
}

const stored = (id: string) =>
  api.db.selectFrom('articles').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('article editor', () => {
  it('adds tags as chips with Enter or a comma, once per spelling, and removes them', async () => {
    await openEditor({ tags: [] });
    const user = userEvent.setup();
    const input = screen.getByLabelText('Tags');
    await user.type(input, 'harbour{Enter}Ferries,HARBOUR{Enter}  night   boats {Enter}');
    const list = screen.getByRole('list', { name: /^Tags: / });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.firstChild?.textContent),
    ).toEqual(['harbour', 'Ferries', 'night boats']);
    await user.click(screen.getByRole('button', { name: 'Remove tag Ferries' }));
    await user.type(input, '{Backspace}');
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.firstChild?.textContent),
    ).toEqual(['harbour']);
  });

  it('knows when there are unsaved changes, and when they are undone', async () => {
    await openEditor();
    const user = userEvent.setup();
    await screen.findByText('All changes saved');
    const title = screen.getByLabelText('Title');
    await user.type(title, '!');
    await screen.findByText('Unsaved changes');
    await user.type(title, '{Backspace}');
    await screen.findByText('All changes saved');
  });

  it('explains a malformed slug and refuses a taken one, leaving the article as it was', async () => {
    await insertArticle(api.db, { status: 'draft', slug: 'taken-slug' });
    const article = await openEditor();
    const user = userEvent.setup();
    const slug = screen.getByLabelText('Slug');
    await user.clear(slug);
    await user.type(slug, 'Not A Slug');
    await screen.findByText(/Use lower-case letters, digits and single dashes/);
    await user.clear(slug);
    await user.type(slug, 'taken-slug');
    await user.click(await screen.findByRole('button', { name: 'Save' }));
    await waitFor(() => expect(slug.getAttribute('aria-invalid')).toBe('true'));
    expect((await stored(article.id)).slug).toBe(article.slug);
  });

  it('asks "changed by someone else" when the article was saved meanwhile, keeping the draft; Overwrite saves it', async () => {
    const article = await openEditor({ category: null, section: null });
    const user = userEvent.setup();
    // Someone else saves a new version after the editor loaded its own.
    const other = await api.api().fetch(`/api/v1/article/${article.id}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'x-csrf-token': await csrfToken() },
      body: JSON.stringify({ section: 'Transport' }),
    });
    expect(other.status).toBe(200);

    await user.type(screen.getByLabelText('Category'), 'Local');
    await user.click(await screen.findByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Changed by someone else' });
    expect(screen.getByLabelText('Category')).toHaveProperty('value', 'Local');
    expect((await stored(article.id)).category).toBeNull();

    await user.click(within(dialog).getByRole('button', { name: 'Overwrite' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(await stored(article.id)).toMatchObject({ category: 'Local', section: 'Transport' });
  });
});

async function csrfToken(): Promise<string> {
  const session = await api.api().fetch('/api/v1/auth/session');
  return ((await session.json()) as { csrfToken: string }).csrfToken;
}
