import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { insertImportedArticle } from '../../api/test/support/dashboard-users';
import { setUpDashboardApi } from './support/dashboard-test-app';
import { renderDashboard } from './support/render-dashboard';

// Issue 26: every review decision can be undone from its toast, takes an optional reason, and the queue's
// count drops by one per decision.

const api = await setUpDashboardApi();

const stored = (id: string) =>
  api.db
    .selectFrom('articles')
    .select(['status', 'published_at', 'review_reason'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

const selectedTitle = () =>
  screen
    .getByRole('list', { name: 'Pending articles' })
    .querySelector('[aria-current="true"] .review-item-title')?.textContent;

const key = (k: string) => fireEvent.keyDown(document.body, { key: k });

/** A queue of exactly these articles, oldest first, opened at /review. */
async function queueOf(...titles: string[]) {
  await api.db.deleteFrom('articles').execute();
  const publisher = await api.insertPublisher({ name: 'Daily Planet', approved: true });
  const articles = [];
  for (const title of titles) articles.push(await insertImportedArticle(api, publisher.publisherId, title));
  const admin = await api.insertAdmin();
  await api.signIn(admin.email);
  renderDashboard('/review');
  await screen.findByRole('heading', { name: titles[0], level: 2 });
  return articles;
}

/** The toast saying `title`, and its Undo button. */
async function undoIn(title: string) {
  const toast = (await screen.findByText(title)).closest('li') as HTMLElement;
  return within(toast).getByRole('button', { name: 'Undo' });
}

describe('reversible review', () => {
  it('undoes a rejection made with r: the article is pending and selected again', async () => {
    const [first] = await queueOf('Rejected by mistake', 'Next in line');
    key('r');
    await waitFor(() => expect(selectedTitle()).toBe('Next in line'));
    fireEvent.click(await undoIn('Rejected “Rejected by mistake”'));
    await screen.findByText('Back to pending: “Rejected by mistake”');
    expect(await stored(first?.id as string)).toMatchObject({ status: 'pending', review_reason: null });
    await waitFor(() => expect(selectedTitle()).toBe('Rejected by mistake'));
  });

  it('undoes an approval: the article leaves the sites and is pending again', async () => {
    const [first] = await queueOf('Approved by mistake', 'Another one');
    fireEvent.click(await screen.findByRole('button', { name: 'Approve' }));
    const undo = await undoIn('Approved “Approved by mistake”');
    expect((await stored(first?.id as string)).status).toBe('published');
    fireEvent.click(undo);
    await screen.findByText('Back to pending: “Approved by mistake”');
    expect(await stored(first?.id as string)).toMatchObject({ status: 'pending', published_at: null });
    await screen.findByRole('button', { name: /^Approved by mistake/ });
  });

  it('drops the count by one per decision', async () => {
    await queueOf('One', 'Two', 'Three', 'Four');
    await screen.findByText('4 articles pending');
    key('a');
    await screen.findByText('3 articles pending');
    await screen.findByText('Approved “One”');
    key('r');
    await screen.findByText('Rejected “Two”');
    // After the queue is read again, still one less per decision (not two).
    await waitFor(() => expect(screen.queryByText('2 articles pending')).not.toBeNull());
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.getByText('2 articles pending')).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    await within(nav).findByRole('link', { name: /^Review,\s*2\s*pending$/ });
  });

  it('sends the reason typed for the article with its decision', async () => {
    const [first] = await queueOf('Press release');
    const field = screen.getByLabelText('Reason (optional)');
    fireEvent.change(field, { target: { value: 'A press release, not news' } });
    // Typing in the field is not a shortcut.
    fireEvent.keyDown(field, { key: 'r' });
    expect(selectedTitle()).toBe('Press release');
    fireEvent.click(screen.getByRole('button', { name: 'Reject' }));
    await screen.findByText('Rejected “Press release”');
    expect(await stored(first?.id as string)).toMatchObject({
      status: 'rejected',
      review_reason: 'A press release, not news',
    });
  });

  it('rejects the checked articles with one reason, and Undo brings them all back', async () => {
    const [first, second] = await queueOf('Checked one', 'Checked two');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select “Checked one”' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select “Checked two”' }));
    fireEvent.click(screen.getByRole('button', { name: 'Reject selected (2)' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Reject 2 articles?' });
    fireEvent.change(within(dialog).getByLabelText('Reason (optional)'), { target: { value: 'Adverts' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    const undo = await undoIn('Rejected 2 articles');
    expect(await stored(first?.id as string)).toMatchObject({ status: 'rejected', review_reason: 'Adverts' });
    expect(await stored(second?.id as string)).toMatchObject({
      status: 'rejected',
      review_reason: 'Adverts',
    });
    fireEvent.click(undo);
    await screen.findByText('Back to pending: 2 articles');
    expect((await stored(first?.id as string)).status).toBe('pending');
    expect((await stored(second?.id as string)).status).toBe('pending');
    await screen.findByRole('button', { name: /^Checked two/ });
  });
});
