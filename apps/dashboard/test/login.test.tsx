import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { setUpDashboardApi } from './support/dashboard-test-app';
import { renderDashboard } from './support/render-dashboard';

const api = await setUpDashboardApi();

async function fillLogin(email: string, password: string) {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText('E-mail'), email);
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('sign-in', () => {
  it('sends a visitor without a session to /login, remembering where they were going', async () => {
    const view = renderDashboard('/publishers/reports');
    await screen.findByRole('button', { name: 'Sign in' });
    await waitFor(() => expect(view.path()).toBe(`/login?next=${encodeURIComponent('/publishers/reports')}`));
    expect(screen.getByText('Please sign in to continue.')).toBeTruthy();
  });

  it("shows the API's message on a wrong password and stays on /login", async () => {
    const admin = await api.insertAdmin();
    const view = renderDashboard('/login');
    await fillLogin(admin.email, 'not the password at all');
    // The same answer for a disabled account (docs/auth.md), so the page says that it may be one.
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Wrong e-mail or password. A disabled account cannot sign in: ask the newsroom.',
    );
    expect(view.path()).toBe('/login');
  });

  it('takes an administrator to /publishers', async () => {
    const admin = await api.insertAdmin();
    const view = renderDashboard('/login');
    await fillLogin(admin.email, 'correct horse battery staple');
    await screen.findByRole('heading', { name: 'Publishers', level: 1 });
    expect(view.path()).toBe('/publishers');
    expect(screen.getByRole('link', { name: 'Queues' }).getAttribute('href')).toBe('/admin/queues');
  });

  it('takes a publisher to /publisher/dashboard, with the publisher navigation only', async () => {
    const publisher = await api.insertPublisher({ name: 'Gazette' });
    const view = renderDashboard('/login');
    await fillLogin(publisher.email, 'correct horse battery staple');
    await screen.findByRole('heading', { name: 'Gazette', level: 1 });
    expect(view.path()).toBe('/publisher/dashboard');
    expect(screen.queryByRole('link', { name: 'Publishers' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Queues' })).toBeNull();
  });

  it('returns to ?next= after signing in, but never to another site', async () => {
    const admin = await api.insertAdmin();
    const view = renderDashboard(`/login?next=${encodeURIComponent('/publishers/create')}`);
    await fillLogin(admin.email, 'correct horse battery staple');
    await screen.findByRole('heading', { name: 'New publisher', level: 1 });
    expect(view.path()).toBe('/publishers/create');
    view.unmount();

    const elsewhere = renderDashboard(`/login?next=${encodeURIComponent('//evil.example/x')}`);
    await screen.findByRole('heading', { name: 'Publishers', level: 1 });
    expect(elsewhere.path()).toBe('/publishers');
  });

  it('shows a publisher "Not allowed" on an administrator view, and loads none of its data', async () => {
    const publisher = await api.insertPublisher();
    await api.signIn(publisher.email);
    renderDashboard('/publishers');
    await screen.findByRole('heading', { name: 'Not allowed' });
    expect(api.api().calls.some((call) => call.url.startsWith('/api/v1/publisher?'))).toBe(false);
  });

  it('signs out: the session ends on the server and the app returns to /login', async () => {
    const admin = await api.insertAdmin();
    await api.signIn(admin.email);
    const view = renderDashboard('/publishers');
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Sign out' }));
    await screen.findByRole('button', { name: 'Sign in' });
    // The session is cleared first (the sign-in form shows at once), then the route moves to /login.
    await waitFor(() => expect(view.path()).toBe('/login'));
    const signOut = api.api().calls.find((call) => call.method === 'DELETE');
    expect(signOut?.status).toBe(204);
    expect(signOut?.headers['x-csrf-token']).toBeTruthy();
    const after = await api.api().fetch('/api/v1/auth/session');
    expect(after.status).toBe(401);
  });
});
