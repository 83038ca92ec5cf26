import { appendAuditEvents } from '@newsroom/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { setUpDashboardApi } from './support/dashboard-test-app';
import { renderDashboard } from './support/render-dashboard';

const api = await setUpDashboardApi();

const auditRows = () =>
  within(screen.getByRole('table', { name: 'Audit entries' }))
    .getAllByRole('row')
    .slice(1);

describe('the Audit view', () => {
  it("opens from a publisher's page filtered to it, and loads older entries on demand", async () => {
    const admin = await api.insertAdmin();
    await api.signIn(admin.email);
    const publisher = await api.insertPublisher({ name: 'Morning Post' });
    await appendAuditEvents(
      api.db,
      Array.from({ length: 60 }, (_, i) => ({
        actor: { type: 'user' as const, id: admin.id, label: admin.email },
        address: '192.0.2.7',
        action: i % 2 ? 'updatePublisher' : 'approvePublisher',
        objectType: 'publisher',
        objectId: publisher.publisherId,
        siteId: null,
        changes: { after: { autoApprove: i % 2 === 1 } },
      })),
    );

    renderDashboard(`/publishers/${publisher.publisherId}`);
    await screen.findByRole('heading', { name: 'Morning Post', level: 1 });
    const user = userEvent.setup();
    await user.click(screen.getByRole('link', { name: 'Audit entries' }));

    await screen.findByRole('heading', { name: 'Audit log', level: 1 });
    await waitFor(() => expect(auditRows()).toHaveLength(50));
    expect(screen.getByLabelText('Object id')).toHaveProperty('value', publisher.publisherId);
    const newest = auditRows()[0] as HTMLElement;
    expect(newest.textContent).toContain('updatePublisher');
    expect(newest.textContent).toContain(admin.email);
    expect(newest.textContent).toContain('192.0.2.7');

    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(auditRows()).toHaveLength(60));
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('filters by action (the sign-in itself is an entry)', async () => {
    const admin = await api.insertAdmin();
    await api.signIn(admin.email);
    renderDashboard('/audit');
    await screen.findByRole('heading', { name: 'Audit log', level: 1 });
    await screen.findByRole('table', { name: 'Audit entries' });

    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Action'), 'logIn');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => {
      const rows = auditRows();
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(row.textContent).toContain('logIn');
    });
    expect(auditRows().some((row) => row.textContent?.includes(admin.email))).toBe(true);

    await user.clear(screen.getByLabelText('Action'));
    await user.type(screen.getByLabelText('Action'), 'neverHappened');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByText('No audit entries match these filters.');
  });
});
