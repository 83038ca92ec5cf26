import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { password, setUpDashboardApi } from './support/dashboard-test-app';
import { errorOf } from './support/field-error';
import { renderDashboard } from './support/render-dashboard';

// The forms that take a password: sign-in, the own password change, a publisher's new password.

const api = await setUpDashboardApi();
const writes = () => api.api().calls.filter((call) => call.method !== 'GET');

describe('sign-in form', () => {
  it('says what is missing above and at the fields, sends nothing, and focuses the e-mail', async () => {
    renderDashboard('/login');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Sign in' }));

    expect((await screen.findByRole('alert')).textContent).toBe('Email: required. Password: required.');
    expect(errorOf('E-mail')).toBe('Required');
    expect(errorOf('Password')).toBe('Required');
    expect(document.activeElement).toBe(screen.getByLabelText('E-mail'));
    expect(writes()).toEqual([]);
  });

  it('clears the refusal when the next attempt signs in', async () => {
    const admin = await api.insertAdmin();
    const view = renderDashboard('/login');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('E-mail'), admin.email);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(errorOf('Password')).toBe('Required'));
    await user.type(screen.getByLabelText('Password'), password);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(view.path()).toBe('/publishers'));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('own password change', () => {
  async function openAccount() {
    const admin = await api.insertAdmin();
    await api.signIn(admin.email);
    renderDashboard('/account');
    const form = await screen.findByRole('form', { name: 'Change password' });
    return { admin, form: within(form), user: userEvent.setup() };
  }

  it('keeps Change password off until both passwords are typed', async () => {
    const { form, user } = await openAccount();
    const button = form.getByRole('button', { name: 'Change password' });
    expect(button.hasAttribute('disabled')).toBe(true);
    await user.type(form.getByLabelText('Current password'), password);
    expect(button.hasAttribute('disabled')).toBe(true);
    await user.type(form.getByLabelText('New password'), 'x');
    expect(button.hasAttribute('disabled')).toBe(false);
  });

  it('puts a wrong current password at its field and changes nothing', async () => {
    const { admin, form, user } = await openAccount();
    await user.type(form.getByLabelText('Current password'), 'not my password at all');
    await user.type(form.getByLabelText('New password'), 'a brand new password, long enough');
    await user.click(form.getByRole('button', { name: 'Change password' }));

    await waitFor(() => expect(errorOf('Current password')).toBe('The current password is wrong'));
    expect(errorOf('New password')).toBeNull();
    expect(document.activeElement).toBe(form.getByLabelText('Current password'));
    expect(screen.queryByRole('status', { name: /changed/ })).toBeNull();
    // The old password still signs in.
    const signIn = await api.api().fetch('/api/v1/auth/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: admin.email, password }),
    });
    expect(signIn.status).toBe(200);
  });

  it('puts a short new password at its field, in words', async () => {
    const { form, user } = await openAccount();
    await user.type(form.getByLabelText('Current password'), password);
    await user.type(form.getByLabelText('New password'), 'short');
    await user.click(form.getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(errorOf('New password')).toMatch(/at least 12 characters/));
    expect(errorOf('Current password')).toBeNull();
  });

  it('empties both fields after the change', async () => {
    const { form, user } = await openAccount();
    await user.type(form.getByLabelText('Current password'), password);
    await user.type(form.getByLabelText('New password'), 'a brand new password, long enough');
    await user.click(form.getByRole('button', { name: 'Change password' }));
    await screen.findByText(/You are still signed in here/);
    expect((form.getByLabelText('Current password') as HTMLInputElement).value).toBe('');
    expect((form.getByLabelText('New password') as HTMLInputElement).value).toBe('');
  });
});

describe("a publisher's new password", () => {
  async function openPublisher() {
    const publisher = await api.insertPublisher({ name: 'Night desk', approved: true });
    const admin = await api.insertAdmin();
    await api.signIn(admin.email);
    renderDashboard(`/publishers/${publisher.publisherId}`);
    await screen.findByRole('heading', { name: 'Night desk', level: 1 });
    const form = within(screen.getByRole('form', { name: 'Reset password' }));
    return { publisher, form, user: userEvent.setup() };
  }

  it('refuses a short password at the field, in words', async () => {
    const { form, user } = await openPublisher();
    const button = form.getByRole('button', { name: 'Set new password' });
    expect(button.hasAttribute('disabled')).toBe(true);
    await user.type(form.getByLabelText('New password'), 'short');
    await user.click(button);
    await waitFor(() => expect(errorOf('New password', form)).toMatch(/at least 12 characters/));
    expect(document.activeElement).toBe(form.getByLabelText('New password'));
  });

  it('sets a generated password the publisher signs in with, and empties the field', async () => {
    const { publisher, form, user } = await openPublisher();
    await user.click(form.getByRole('button', { name: 'Generate' }));
    const generated = (form.getByLabelText('New password') as HTMLInputElement).value;
    await user.click(form.getByRole('button', { name: 'Set new password' }));
    await screen.findByText('Give the publisher its new password.');
    expect((form.getByLabelText('New password') as HTMLInputElement).value).toBe('');
    const signIn = await api.api().fetch('/api/v1/auth/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: publisher.email, password: generated }),
    });
    expect(signIn.status).toBe(200);
  });
});
