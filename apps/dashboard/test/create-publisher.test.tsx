import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { setUpDashboardApi } from './support/dashboard-test-app';
import { renderDashboard } from './support/render-dashboard';

const api = await setUpDashboardApi();

/** The error shown for a field: the element its input names in aria-describedby with class field-error. */
function errorOf(label: string): string | null {
  const input = screen.getByLabelText(label);
  const ids = (input.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
  const error = ids
    .map((id) => document.getElementById(id))
    .find((el) => el?.classList.contains('field-error'));
  return error?.textContent ?? null;
}

async function openForm() {
  const admin = await api.insertAdmin();
  await api.signIn(admin.email);
  const view = renderDashboard('/publishers/create');
  await screen.findByRole('heading', { name: 'New publisher', level: 1 });
  return view;
}

describe('create publisher form', () => {
  it("shows the API's validation errors next to the fields they name", async () => {
    await openForm();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Name'), 'Daily Bugle');
    await user.type(screen.getByLabelText('E-mail'), 'not-an-address');
    await user.type(screen.getByLabelText('Password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Create publisher' }));

    await waitFor(() => expect(errorOf('E-mail')).toBe('Enter an e-mail address such as name@example.com'));
    expect(errorOf('Password')).toBe('Must be at least 12 characters');
    expect(errorOf('Name')).toBeNull();
    expect(screen.getByLabelText('E-mail').getAttribute('aria-invalid')).toBe('true');
    const count = await api.db
      .selectFrom('publishers')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it('puts a taken e-mail next to the e-mail field', async () => {
    const existing = await api.insertPublisher();
    await openForm();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Name'), 'Copycat');
    await user.type(screen.getByLabelText('E-mail'), existing.email);
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    await user.click(screen.getByRole('button', { name: 'Create publisher' }));
    await waitFor(() => expect(errorOf('E-mail')).toMatch(/already/i));
    // The toast carries the API's message too.
    expect(within(screen.getByRole('region', { name: /Notification/ })).getByText(/already/i)).toBeTruthy();
  });

  it('generates a password, creates the publisher and opens its page', async () => {
    const view = await openForm();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Name'), 'Morning Post');
    await user.type(screen.getByLabelText('E-mail'), 'desk@morning-post.example');
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    const generated = (screen.getByLabelText('Password') as HTMLInputElement).value;
    expect(generated).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(screen.getByLabelText('Password').getAttribute('type')).toBe('text');
    await user.click(screen.getByRole('button', { name: 'Create publisher' }));

    await screen.findByRole('heading', { name: 'Morning Post', level: 1 });
    const row = await api.db
      .selectFrom('publishers')
      .select(['id', 'approved'])
      .where('name', '=', 'Morning Post')
      .executeTakeFirstOrThrow();
    expect(view.path()).toBe(`/publishers/${row.id}`);
    expect(row.approved).toBe(false);
    expect(screen.getByText('Awaiting approval')).toBeTruthy();

    // The generated password is the publisher's: it signs in with it.
    const signIn = await api.api().fetch('/api/v1/auth/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'desk@morning-post.example', password: generated }),
    });
    expect(signIn.status).toBe(200);
  });
});
