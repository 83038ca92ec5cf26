import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { insertImportedArticle } from '../../api/test/support/dashboard-users';
import { setUpDashboardApi } from './support/dashboard-test-app';
import { renderDashboard } from './support/render-dashboard';

const api = await setUpDashboardApi();

async function statusOf(id: string) {
  const row = await api.db
    .selectFrom('articles')
    .select('status')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return row.status;
}

const selectedTitle = () =>
  screen
    .getByRole('list', { name: 'Pending articles' })
    .querySelector('[aria-current="true"] .review-item-title')?.textContent;

const key = (k: string) => fireEvent.keyDown(document.body, { key: k });

describe('the review queue', () => {
  it('says so when nothing is waiting', async () => {
    const admin = await api.insertAdmin();
    await api.signIn(admin.email);
    renderDashboard('/review');
    await screen.findByText('Nothing is waiting for review.');
  });

  it('approves and rejects by keyboard, selecting the next article each time', async () => {
    const publisher = await api.insertPublisher({ name: 'Daily Planet', approved: true });
    const first = await insertImportedArticle(api, publisher.publisherId, 'First story');
    const second = await insertImportedArticle(api, publisher.publisherId, 'Second story');
    const third = await insertImportedArticle(api, publisher.publisherId, 'Third story');
    const admin = await api.insertAdmin();
    await api.signIn(admin.email);
    renderDashboard('/review');

    // The navigation counts the queue; the oldest is selected and previewed.
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    await within(nav).findByRole('link', { name: /^Review,\s*3\s*pending$/ });
    await screen.findByRole('heading', { name: 'First story', level: 2 });
    expect(selectedTitle()).toBe('First story');
    expect(screen.getByText('approve').closest('p')?.textContent).toContain('j next article');

    key('a');
    await waitFor(() => expect(selectedTitle()).toBe('Second story'));
    await waitFor(async () => expect(await statusOf(first.id)).toBe('published'));

    key('j');
    expect(selectedTitle()).toBe('Third story');
    key('r');
    // The last one gone: the one before it is selected.
    await waitFor(() => expect(selectedTitle()).toBe('Second story'));
    await waitFor(async () => expect(await statusOf(third.id)).toBe('rejected'));
    expect(await statusOf(second.id)).toBe('pending');
    await within(nav).findByRole('link', { name: /^Review,\s*1\s*pending$/ });

    key('k');
    expect(selectedTitle()).toBe('Second story');
  });

  it('ignores the shortcuts while a dialog is open or a modifier is held', async () => {
    const publisher = await api.insertPublisher({ approved: true });
    const only = await insertImportedArticle(api, publisher.publisherId, 'Lonely story');
    const admin = await api.insertAdmin();
    await api.signIn(admin.email);
    renderDashboard('/review');
    fireEvent.click(await screen.findByRole('button', { name: /^Lonely story/ }));
    await screen.findByRole('heading', { name: 'Lonely story', level: 2 });

    fireEvent.keyDown(document.body, { key: 'a', ctrlKey: true });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select “Lonely story”' }));
    fireEvent.click(screen.getByRole('button', { name: 'Reject selected (1)' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Reject 1 article?' });
    fireEvent.keyDown(within(dialog).getByRole('button', { name: 'Cancel' }), { key: 'a' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await statusOf(only.id)).toBe('pending');
  });
});
