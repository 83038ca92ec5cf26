import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { setUpDashboardApi } from './support/dashboard-test-app';
import { renderDashboard } from './support/render-dashboard';

const api = await setUpDashboardApi();

async function openList() {
  const admin = await api.insertAdmin();
  await api.signIn(admin.email);
  renderDashboard('/publishers');
  await screen.findByRole('heading', { name: 'Publishers', level: 1 });
}

describe('publishers list', () => {
  it('says so when there are no publishers yet', async () => {
    await openList();
    await screen.findByText('No publishers yet. Create the first one.');
  });

  it('approves a publisher from its row', async () => {
    const publisher = await api.insertPublisher({ name: 'Evening Standard' });
    await openList();
    const row = (await screen.findByRole('link', { name: 'Evening Standard' })).closest('tr') as HTMLElement;
    expect(within(row).getByText('Awaiting approval')).toBeTruthy();
    await userEvent.setup().click(within(row).getByRole('button', { name: 'Approve Evening Standard' }));
    await waitFor(() => expect(within(row).getByText('Approved')).toBeTruthy());
    const saved = await api.db
      .selectFrom('publishers')
      .select('approved')
      .where('id', '=', publisher.publisherId)
      .executeTakeFirstOrThrow();
    expect(saved.approved).toBe(true);
  });

  it('asks before deleting, says what happens to the articles, and deletes on confirmation', async () => {
    await api.insertPublisher({ name: 'Old Herald' });
    await openList();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete Old Herald' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete Old Herald?' });
    expect(dialog.textContent).toContain('Its articles stay');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('link', { name: 'Old Herald' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Delete Old Herald' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete publisher' }),
    );
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Old Herald' })).toBeNull());
    // The row can leave the list before the DELETE's answer is in (a loaded machine): poll the database.
    await waitFor(async () => {
      const left = await api.db
        .selectFrom('publishers')
        .select('id')
        .where('name', '=', 'Old Herald')
        .execute();
      expect(left).toEqual([]);
    });
  });
});
