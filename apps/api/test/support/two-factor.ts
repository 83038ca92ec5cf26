import { base32Decode, totpAt } from '@newsroom/domain';
import type { App } from '../../src/app';

/**
 * A controllable second-factor clock for the app: it runs with the system clock plus an offset that tests
 * move forward (`advance`), so a new time step is chosen, never waited for.
 */
export function controlSecondFactorClock(app: App) {
  let offsetMs = 0;
  app.secondFactorClock.now = () => new Date(Date.now() + offsetMs);
  return {
    now: () => new Date(Date.now() + offsetMs),
    advance(ms: number) {
      offsetMs += ms;
    },
  };
}

export type Clock = ReturnType<typeof controlSecondFactorClock>;

/** The authenticator app: each call moves the clock a step on and answers the code of the new step. */
export function authenticator(secret: string, clock: Clock) {
  const raw = base32Decode(secret);
  // The instant the last code was made at: a replay sends that code again even when the real clock (which the
  // test clock runs with) has crossed into the next 30-second step meanwhile.
  let madeAt = clock.now();
  return {
    /** The code last answered (no move): what a replay sends. */
    current: () => totpAt(raw, madeAt),
    next() {
      clock.advance(30_000);
      madeAt = clock.now();
      return totpAt(raw, madeAt);
    },
  };
}

/** A cookie session from a sign-in answer. */
export function sessionOf(response: { cookies: { name: string; value: string }[]; json(): unknown }) {
  const cookie = response.cookies.find((c) => c.name === 'newsroom_session');
  if (!cookie) throw new Error('no session cookie');
  return {
    cookie: `${cookie.name}=${cookie.value}`,
    csrfToken: (response.json() as { csrfToken: string }).csrfToken,
  };
}

export type Session = ReturnType<typeof sessionOf>;

export const withSession = (session: Session) => ({
  cookie: session.cookie,
  'x-csrf-token': session.csrfToken,
});

/** Enrols the session's user (setup + confirm); answers its secret, authenticator and recovery codes. */
export async function enrol(app: App, session: Session, clock: Clock) {
  const setup = await app.inject({
    method: 'POST',
    url: '/api/v1/account/2fa/setup',
    headers: withSession(session),
  });
  if (setup.statusCode !== 200) throw new Error(`setup: ${setup.statusCode} ${setup.body}`);
  const { secret, otpauthUri } = setup.json() as { secret: string; otpauthUri: string };
  const app2 = authenticator(secret, clock);
  const confirm = await app.inject({
    method: 'POST',
    url: '/api/v1/account/2fa/confirm',
    headers: withSession(session),
    payload: { code: app2.next() },
  });
  if (confirm.statusCode !== 200) throw new Error(`confirm: ${confirm.statusCode} ${confirm.body}`);
  return {
    secret,
    otpauthUri,
    codes: app2,
    recoveryCodes: (confirm.json() as { recoveryCodes: string[] }).recoveryCodes,
  };
}
