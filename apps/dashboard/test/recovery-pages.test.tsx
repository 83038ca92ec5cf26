import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { setUpDashboardApi } from './support/dashboard-test-app';
import { renderDashboard } from './support/render-dashboard';

// The public recovery views against the real API (no SMTP: the development outbox holds the links).

const api = await setUpDashboardApi();
/** The newest link of that kind on the development outbox page (what a person on a fresh clone opens). */
const linkOf = async (kind: 'invitation' | 'reset-password') => {
  const page = (await api.app.inject('/dev/outbox')).body;
  const token = page.match(new RegExp(`/${kind}/([A-Za-z0-9_-]{43})`))?.[1];
  if (!token) throw new Error(`no ${kind} link in the outbox`);
  return token;
};
const newPassword = 'a fresh and long password';

describe('forgot password', () => {
  it('is linked from the sign-in page, answers without saying whether the e-mail exists, and the link sets a new password', async () => {
    const admin = await api.insertAdmin();
    renderDashboard('/login');
    expect((await screen.findByRole('link', { name: 'Forgot password?' })).getAttribute('href')).toBe(
      '/forgot-password',
    );

    cleanup();
    renderDashboard('/forgot-password');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('E-mail'), admin.email);
    await user.click(screen.getByRole('button', { name: 'Send the link' }));
    expect((await screen.findByRole('status')).textContent).toContain('If a login with this e-mail exists');

    const token = await linkOf('reset-password');
    cleanup();
    renderDashboard(`/reset-password/${token}`);
    await user.type(await screen.findByLabelText(/New password/), newPassword);
    await user.click(screen.getByRole('button', { name: 'Save the password' }));
    expect((await screen.findByRole('status')).textContent).toContain('Your password is changed');
    const login = await api.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: admin.email, password: newPassword },
    });
    expect(login.statusCode).toBe(200);
  });
});

describe('invitation', () => {
  it('shows the e-mail and role, and creates the account with the chosen password', async () => {
    const admin = await api.insertAdmin();
    const invited = await api.app.inject({
      method: 'POST',
      url: '/api/v1/users/invitations',
      headers: { authorization: `Bearer ${admin.token}` },
      payload: { email: 'invitee@example.com', role: 'contributor', grants: [] },
    });
    expect(invited.statusCode).toBe(201);
    renderDashboard(`/invitation/${await linkOf('invitation')}`);
    expect(await screen.findByText('invitee@example.com')).toBeTruthy();
    expect(screen.getByText('contributor')).toBeTruthy();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/New password/), newPassword);
    await user.click(screen.getByRole('button', { name: 'Create my account' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('Your account is ready'));
  });
});
