import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { insertSite } from '../../api/test/support/content-fixtures';
import { grant, insertStaff } from '../../api/test/support/policy/staff-fixtures';
import { password, setUpDashboardApi } from './support/dashboard-test-app';
import { renderDashboard } from './support/render-dashboard';

// The Team view (/team) against the real API: the people with their access, invitations (the development
// link without SMTP), refusals on their fields, the last administrator's guard, suspend, resume and delete.

const api = await setUpDashboardApi();
const metro = await insertSite(api.db, 'team-view-metro');
await insertSite(api.db, 'team-view-coast');

async function openTeam() {
  const admin = await api.insertAdmin();
  await api.signIn(admin.email);
  renderDashboard('/team');
  await screen.findByRole('heading', { name: 'Team', level: 1 });
  await screen.findByText('(you)');
  return admin;
}

const rowOf = async (email: string) =>
  (await screen.findByRole('cell', { name: new RegExp(email.replace('.', '\\.')) })).closest(
    'tr',
  ) as HTMLElement;

describe('the Team view', () => {
  it('invites with per-site grants, shows the development link, and puts a taken e-mail on its field', async () => {
    const taken = await insertStaff(api.app, api.db, 'editor', { password });
    await openTeam();
    const form = screen.getByRole('form', { name: 'Invite a person' });
    fireEvent.change(within(form).getByLabelText('E-mail'), { target: { value: taken.email } });
    fireEvent.click(within(form).getByRole('button', { name: 'Send invitation' }));
    const email = within(form).getByLabelText('E-mail');
    await waitFor(() => expect(email.getAttribute('aria-invalid')).toBe('true'));
    expect(within(form).getByText(/exists already/)).toBeTruthy();

    fireEvent.change(email, { target: { value: 'writer@team-view.example' } });
    fireEvent.change(within(form).getByLabelText('Role'), { target: { value: 'contributor' } });
    fireEvent.change(await within(form).findByLabelText('Role on Site team-view-metro'), {
      target: { value: 'contributor' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Send invitation' }));
    const link = await within(form).findByTestId('invitation-link');
    expect(link.textContent).toMatch(/\/invitation\/[A-Za-z0-9_-]{20,}$/);
    await screen.findByText(/writer@team-view\.example, contributor, until/);
    const stored = await api.db
      .selectFrom('invitations')
      .select(['role', 'grants'])
      .where('email', '=', 'writer@team-view.example')
      .executeTakeFirstOrThrow();
    expect(stored.role).toBe('contributor');
    expect(JSON.stringify(stored.grants)).toContain(metro);

    fireEvent.click(
      screen.getByRole('button', { name: 'Revoke the invitation of writer@team-view.example' }),
    );
    await waitFor(() =>
      expect(screen.queryByText(/writer@team-view\.example, contributor, until/)).toBeNull(),
    );
  });

  it("changes a person's role and grants", async () => {
    const editor = await insertStaff(api.app, api.db, 'editor', { password });
    await grant(api.db, editor.id, metro, 'editor');
    await openTeam();
    const row = await rowOf(editor.email);
    expect(within(row).getByText('team-view-metro: editor')).toBeTruthy();
    expect(within(row).getByText('Never')).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: `Change access of ${editor.email}` }));
    const form = await screen.findByRole('form', { name: `Access of ${editor.email}` });
    fireEvent.change(await within(form).findByLabelText('Role on Site team-view-metro'), {
      target: { value: 'reviewer' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Save access' }));
    await within(await rowOf(editor.email)).findByText('team-view-metro: reviewer');
  });

  it('says why the last administrator cannot be demoted, at the role', async () => {
    await api.db.updateTable('users').set({ disabled_at: new Date() }).where('role', '=', 'admin').execute();
    const admin = await openTeam();
    const row = await rowOf(admin.email);
    fireEvent.click(within(row).getByRole('button', { name: `Change access of ${admin.email}` }));
    const form = await screen.findByRole('form', { name: `Access of ${admin.email}` });
    fireEvent.change(within(form).getByLabelText('Role'), { target: { value: 'editor' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save access' }));
    expect(
      await within(form).findByText('This is the last administrator: appoint another one first'),
    ).toBeTruthy();
    expect(within(row).queryByRole('button', { name: /Suspend|Delete/ })).toBeNull();
  });

  it('suspends, resumes, and deletes after a confirmation', async () => {
    const reviewer = await insertStaff(api.app, api.db, 'reviewer', { password });
    await openTeam();
    let row = await rowOf(reviewer.email);
    fireEvent.click(within(row).getByRole('button', { name: `Suspend ${reviewer.email}` }));
    row = await rowOf(reviewer.email);
    await within(row).findByText('Suspended');
    fireEvent.click(await within(row).findByRole('button', { name: `Resume ${reviewer.email}` }));
    await within(await rowOf(reviewer.email)).findByText('Active');

    fireEvent.click(
      within(await rowOf(reviewer.email)).getByRole('button', { name: `Delete ${reviewer.email}` }),
    );
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete this person?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete for good' }));
    await screen.findByText(`${reviewer.email} deleted`);
    await waitFor(() => expect(screen.queryByRole('cell', { name: new RegExp(reviewer.email) })).toBeNull());
    const stored = await api.db
      .selectFrom('users')
      .select('deleted_at')
      .where('id', '=', reviewer.id)
      .executeTakeFirstOrThrow();
    expect(stored.deleted_at).not.toBeNull();
  });

  it('keeps what was typed when the session ended, and invites after signing in again', async () => {
    const admin = await openTeam();
    const form = screen.getByRole('form', { name: 'Invite a person' });
    fireEvent.change(within(form).getByLabelText('E-mail'), { target: { value: 'late@team-view.example' } });
    fireEvent.change(within(form).getByLabelText('Role'), { target: { value: 'reviewer' } });
    await api.db.deleteFrom('dashboard_sessions').execute();
    fireEvent.click(within(form).getByRole('button', { name: 'Send invitation' }));

    const dialog = await screen.findByRole('dialog', { name: 'Sign in again' });
    expect(within(dialog).getByLabelText('E-mail')).toHaveProperty('value', admin.email);
    fireEvent.change(within(dialog).getByLabelText('Password'), { target: { value: password } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign in' }));
    await within(form).findByTestId('invitation-link');
    const stored = await api.db
      .selectFrom('invitations')
      .select('role')
      .where('email', '=', 'late@team-view.example')
      .executeTakeFirstOrThrow();
    expect(stored.role).toBe('reviewer');
  });
});
