import { base32Decode, confirmTotpEnrolment, startTotpEnrolment, totpAt } from '@newsroom/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { controlSecondFactorClock } from '../../api/test/support/two-factor';
import { password, setUpDashboardApi } from './support/dashboard-test-app';
import { renderDashboard } from './support/render-dashboard';

// The Account view's two-factor section and profile, the sign-in's second step and the enforced enrolment,
// against the real API. Time steps come from a controllable clock (never waited for).

const api = await setUpDashboardApi();
const clock = controlSecondFactorClock(api.app);

/** An administrator enrolled straight through the domain; answers its secret and recovery codes. */
async function enrolledAdmin() {
  const admin = await api.insertAdmin();
  const { secret } = await startTotpEnrolment(api.db, api.app.secretBox, {
    id: admin.id,
    email: admin.email,
  });
  clock.advance(30_000);
  const raw = base32Decode(secret);
  const confirmed = await api.db
    .transaction()
    .execute((tx) =>
      confirmTotpEnrolment(tx, api.app.secretBox, admin.id, totpAt(raw, clock.now()), clock.now()),
    );
  if (confirmed.outcome !== 'confirmed') throw new Error(confirmed.outcome);
  const nextCode = () => {
    clock.advance(30_000);
    return totpAt(raw, clock.now());
  };
  return { admin, nextCode, recoveryCodes: confirmed.recoveryCodes };
}

async function typePassword(email: string) {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText('E-mail'), email);
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
  return user;
}

describe('turning on two-factor authentication in the Account view', () => {
  it('shows a QR code and the key, confirms with a code, then shows the recovery codes once', async () => {
    const admin = await api.insertAdmin();
    await api.signIn(admin.email);
    renderDashboard('/account');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Set up two-factor authentication' }));
    expect(await screen.findByRole('img', { name: 'QR code of your two-factor key' })).toBeTruthy();
    const key = (await screen.findByTestId('totp-secret')).textContent?.replaceAll(' ', '') ?? '';
    expect(key).toMatch(/^[A-Z2-7]{32}$/);

    const code = screen.getByLabelText(/Code from the app/);
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    expect(code.getAttribute('inputmode')).toBe('numeric');
    await user.type(code, '000000');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    const zeroesIsRight = totpAt(base32Decode(key), clock.now()) === '000000';
    if (!zeroesIsRight) expect(await screen.findByText(/Wrong code/)).toBeTruthy();
    await user.clear(code);
    await user.type(code, totpAt(base32Decode(key), clock.now()));
    await user.click(screen.getByRole('button', { name: 'Turn on' }));

    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(10);
    const done = screen.getByRole('button', { name: 'Done' });
    expect(done).toHaveProperty('disabled', true);
    await user.click(screen.getByLabelText('I have saved these codes'));
    await user.click(done);
    expect(await screen.findByText(/10 of 10 recovery codes/)).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Recovery codes' })).toBeNull();
    // This session counts as verified: other views keep working.
    expect((await api.api().fetch('/api/v1/article')).status).toBe(200);
  });

  it('saves the display name', async () => {
    const admin = await api.insertAdmin();
    await api.signIn(admin.email);
    renderDashboard('/account');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/Display name/), 'Lois Lane');
    await user.click(screen.getByRole('button', { name: 'Save profile' }));
    await waitFor(async () =>
      expect(
        (
          await api.db
            .selectFrom('users')
            .select('display_name')
            .where('id', '=', admin.id)
            .executeTakeFirstOrThrow()
        ).display_name,
      ).toBe('Lois Lane'),
    );
  });
});

describe('signing in with a second factor', () => {
  it('asks for the code after the password, then opens the dashboard', async () => {
    const { admin, nextCode } = await enrolledAdmin();
    const view = renderDashboard('/login');
    const user = await typePassword(admin.email);
    const code = await screen.findByLabelText('Authentication code');
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    expect(code.getAttribute('inputmode')).toBe('numeric');
    await user.type(code, nextCode());
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await screen.findByRole('heading', { name: 'Publishers', level: 1 });
    expect(view.path()).toBe('/publishers');
  });

  it('takes a recovery code instead, and says when a code is wrong', async () => {
    const { admin, recoveryCodes } = await enrolledAdmin();
    renderDashboard('/login');
    const user = await typePassword(admin.email);
    await user.click(await screen.findByRole('button', { name: 'Use a recovery code' }));
    const field = await screen.findByLabelText('Recovery code');
    await user.type(field, 'AAAA-BBBB-CCCC-DDDD');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/Wrong code \(4 attempts left\)/);
    await user.clear(field);
    await user.type(field, recoveryCodes[0] as string);
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await screen.findByRole('heading', { name: 'Publishers', level: 1 });
  });
});

describe('when the policy requires two-factor authentication', () => {
  it('sends an administrator without it to the Account view before anything else', async () => {
    const admin = await api.insertAdmin();
    await api.db.updateTable('security_settings').set({ require_admin_two_factor: true }).execute();
    try {
      await api.signIn(admin.email);
      const view = renderDashboard('/publishers');
      expect(await screen.findByText(/requires two-factor authentication for administrators/)).toBeTruthy();
      expect(view.path()).toBe('/account');
      expect(screen.getByRole('button', { name: 'Set up two-factor authentication' })).toBeTruthy();
    } finally {
      await api.db.updateTable('security_settings').set({ require_admin_two_factor: false }).execute();
    }
  });
});

describe('signing in again over a view, with a second factor', () => {
  it('asks for the password, then the code, and the view carries on', async () => {
    const { admin, nextCode } = await enrolledAdmin();
    const json = { 'content-type': 'application/json' };
    const first = await api.api().fetch('/api/v1/auth/session', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email: admin.email, password }),
    });
    const { challengeToken } = (await first.json()) as { challengeToken: string };
    const second = await api.api().fetch('/api/v1/auth/session/2fa', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ challengeToken, code: nextCode() }),
    });
    expect(second.status).toBe(200);
    const view = renderDashboard('/publishers');
    await screen.findByRole('heading', { name: 'Publishers', level: 1 });
    await waitFor(() => expect(view.dashboard.queryClient.isFetching()).toBe(0));

    await api.db.deleteFrom('dashboard_sessions').where('user_id', '=', admin.id).execute();
    const user = userEvent.setup();
    await user.click(screen.getAllByRole('link', { name: 'Sites' })[0] as HTMLElement);
    const dialog = await screen.findByRole('dialog', { name: 'Sign in again' });
    await user.type(within(dialog).getByLabelText('Password'), password);
    await user.click(within(dialog).getByRole('button', { name: 'Sign in' }));
    await user.type(await within(dialog).findByLabelText('Authentication code'), nextCode());
    await user.click(within(dialog).getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await screen.findByRole('heading', { name: 'Sites', level: 1 });
  });
});
