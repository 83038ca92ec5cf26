import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { password, setUpDashboardApi } from './support/dashboard-test-app';
import { renderDashboard } from './support/render-dashboard';

// Changing one's own password keeps this session (the API ends only the others and every token) and says so.

const api = await setUpDashboardApi();

describe('changing one’s own password', () => {
  it('stays signed in here and says that the other sessions and tokens were signed out', async () => {
    const admin = await api.insertAdmin();
    await api.signIn(admin.email);
    const view = renderDashboard('/account');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Current password'), password);
    await user.type(screen.getByLabelText('New password'), 'a brand new password, long enough');
    await user.click(screen.getByRole('button', { name: 'Change password' }));

    const said = await screen.findByText(/You are still signed in here/);
    expect(said.getAttribute('role')).toBe('status');
    expect(said.textContent).toMatch(/every other session .* was signed out/);
    // The session goes on: the next view loads, no sign-in is asked for.
    await user.click(screen.getByRole('link', { name: 'Publishers' }));
    await screen.findByRole('heading', { name: 'Publishers', level: 1 });
    expect(screen.queryByRole('dialog', { name: 'Sign in again' })).toBeNull();
    expect(view.path()).toBe('/publishers');
    expect((await api.api().fetch('/api/v1/auth/session')).status).toBe(200);
  });
});
