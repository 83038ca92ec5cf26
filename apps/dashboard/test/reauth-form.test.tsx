import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { password, setUpDashboardApi } from './support/dashboard-test-app';
import { errorOf } from './support/field-error';
import { renderDashboard } from './support/render-dashboard';

// The sign-in-again dialog's form (reauth.test.tsx has the requests that wait for it): its fields, what it
// refuses before sending, and the way back.

const api = await setUpDashboardApi();
const signIns = () =>
  api.api().calls.filter((call) => call.method === 'POST' && call.url === '/api/v1/auth/session');

async function dialogOverSites() {
  const admin = await api.insertAdmin();
  await api.signIn(admin.email);
  const view = renderDashboard('/sites');
  await screen.findByRole('heading', { name: 'Sites', level: 1 });
  // The view's own reads done: the 401 below is met by the next view's read.
  await waitFor(() => expect(view.dashboard.queryClient.isFetching()).toBe(0));
  await api.db.deleteFrom('dashboard_sessions').execute();
  const user = userEvent.setup();
  await user.click(screen.getByRole('link', { name: 'Reports' }));
  const dialog = within(await screen.findByRole('dialog', { name: 'Sign in again' }));
  return { admin, dialog, user };
}

describe('the sign-in-again form', () => {
  it("fills in the person's e-mail and starts in the password field", async () => {
    const { admin, dialog, user } = await dialogOverSites();
    expect((dialog.getByLabelText('E-mail') as HTMLInputElement).value).toBe(admin.email);
    await waitFor(() => expect(document.activeElement).toBe(dialog.getByLabelText('Password')));
    // Typed where the focus is, the password signs in (the dialog waits in module state: it must close).
    await user.keyboard(`${password}{Enter}`);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('says an empty password is needed without sending it, stays open, then signs in', async () => {
    const { dialog, user } = await dialogOverSites();
    const before = signIns().length;
    await user.click(dialog.getByRole('button', { name: 'Sign in' }));
    expect((await dialog.findByRole('alert')).textContent).toBe('Password: required.');
    expect(errorOf('Password', dialog)).toBe('Required');
    expect(errorOf('E-mail', dialog)).toBeNull();
    expect(signIns().length).toBe(before);

    await user.type(dialog.getByLabelText('Password'), password);
    await user.click(dialog.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await screen.findByRole('heading', { name: /report/i, level: 1 });
  });
});
