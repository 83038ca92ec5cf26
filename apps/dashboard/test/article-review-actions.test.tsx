import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { insertImportedArticle } from '../../api/test/support/dashboard-users';
import { setUpDashboardApi } from './support/dashboard-test-app';
import { renderDashboard } from './support/render-dashboard';

// Issue 26: review decisions outside /review: on a pending article's editor page (with Back to pending once
// decided), "Approve selected" on /articles, and the reason on the publisher's own dashboard.

const api = await setUpDashboardApi();

const stored = (id: string) =>
  api.db
    .selectFrom('articles')
    .select(['status', 'review_reason', 'published_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

async function signedInAdmin() {
  const admin = await api.insertAdmin();
  await api.signIn(admin.email);
}

async function openEditor(id: string, title: string) {
  renderDashboard(`/articles/${id}`);
  await screen.findByDisplayValue(title);
  const card = screen.getByRole('region', { name: 'Status and actions' });
  // The actions appear once the permissions are read (GET /auth/permissions), which may answer after the article.
  await within(card).findByRole('button', { name: 'Save' });
  return card;
}

describe('review decisions in the editor', () => {
  it('rejects a pending article with a reason, then moves it back to pending', async () => {
    const publisher = await api.insertPublisher({ approved: true });
    const article = await insertImportedArticle(api, publisher.publisherId, 'Editor rejects');
    await signedInAdmin();
    const card = await openEditor(article.id, 'Editor rejects');

    fireEvent.change(within(card).getByLabelText('Reason (optional)'), { target: { value: 'Off topic' } });
    fireEvent.click(within(card).getByRole('button', { name: 'Reject' }));
    await within(card).findByText(/^Rejected in review .*: “Off topic”$/);
    expect(await stored(article.id)).toMatchObject({ status: 'rejected', review_reason: 'Off topic' });

    fireEvent.click(within(card).getByRole('button', { name: 'Back to pending' }));
    await within(card).findByRole('button', { name: 'Approve' });
    expect(await stored(article.id)).toMatchObject({ status: 'pending', review_reason: null });
  });

  it('approves from the editor, and the toast takes it back', async () => {
    const publisher = await api.insertPublisher({ approved: true });
    const article = await insertImportedArticle(api, publisher.publisherId, 'Editor approves');
    await signedInAdmin();
    const card = await openEditor(article.id, 'Editor approves');

    fireEvent.click(within(card).getByRole('button', { name: 'Approve' }));
    const toast = (await screen.findByText('Approved')).closest('li') as HTMLElement;
    expect((await stored(article.id)).status).toBe('published');
    await within(card).findByRole('button', { name: 'Back to pending' });
    fireEvent.click(within(toast).getByRole('button', { name: 'Undo' }));
    await within(card).findByRole('button', { name: 'Approve' });
    expect(await stored(article.id)).toMatchObject({ status: 'pending', published_at: null });
  });

  it('offers neither a decision nor Back to pending on an auto-approved article', async () => {
    const publisher = await api.insertPublisher({ approved: true });
    const article = await insertImportedArticle(api, publisher.publisherId, 'Auto approved', 'published');
    await signedInAdmin();
    const card = await openEditor(article.id, 'Auto approved');
    expect(within(card).queryByRole('button', { name: 'Back to pending' })).toBeNull();
    expect(within(card).queryByRole('button', { name: 'Approve' })).toBeNull();
  });
});

describe('"Approve selected" on /articles', () => {
  it('approves the checked articles in one request, with Undo', async () => {
    const publisher = await api.insertPublisher({ approved: true });
    const a = await insertImportedArticle(api, publisher.publisherId, 'Bulk approve one');
    const b = await insertImportedArticle(api, publisher.publisherId, 'Bulk approve two');
    await signedInAdmin();
    renderDashboard('/articles?status=pending');
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Select “Bulk approve one”' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select “Bulk approve two”' }));
    fireEvent.click(screen.getByRole('button', { name: 'Approve selected' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Approve 2 articles?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve 2 articles' }));
    await screen.findByText('Approve: 2 of 2 done.');
    expect((await stored(a.id)).status).toBe('published');
    expect((await stored(b.id)).status).toBe('published');

    const toast = (await screen.findByText('Approved 2 articles')).closest('li') as HTMLElement;
    fireEvent.click(within(toast).getByRole('button', { name: 'Undo' }));
    await screen.findByText('Back to pending: 2 of 2');
    expect((await stored(a.id)).status).toBe('pending');
  });
});

describe('the publisher sees the reason', () => {
  it('on its dashboard, next to the status', async () => {
    const publisher = await api.insertPublisher({ approved: true });
    const article = await insertImportedArticle(api, publisher.publisherId, 'Seen by the publisher');
    await api.db
      .updateTable('articles')
      .set({ status: 'rejected', reviewed_at: new Date(), review_reason: 'Duplicate of yesterday' })
      .where('id', '=', article.id)
      .execute();
    await api.signIn(publisher.email);
    renderDashboard('/publisher/dashboard');
    const row = (await screen.findByText('Seen by the publisher')).closest('tr') as HTMLElement;
    await waitFor(() => expect(row.textContent).toContain('Reason: Duplicate of yesterday'));
  });
});
