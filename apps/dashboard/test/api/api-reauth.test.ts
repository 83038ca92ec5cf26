import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, dataOf } from '../../src/lib/api-client';
import { ApiError } from '../../src/lib/api-error';
import { csrfToken, setCsrfToken } from '../../src/lib/csrf-token';
import { reauthAbandoned, reauthenticated, reauthState, subscribeReauth } from '../../src/lib/reauth';
import { password, setUpDashboardApi } from '../support/dashboard-test-app';
import { queryHarness } from '../support/query-harness';

// The client's side of "signing in again over the view": a request that meets an ended session (401)
// waits while a sign-in dialog is open, and is sent again, whole, after the sign-in, with the new
// session's CSRF token. Here the dialog is a subscriber and the sign-in a POST /auth/session.

const server = await setUpDashboardApi();
let unsubscribe = () => {};
beforeEach(() => {
  // A mounted dialog: someone can sign in again.
  unsubscribe = subscribeReauth(() => {});
});
afterEach(() => {
  reauthAbandoned();
  unsubscribe();
  setCsrfToken(null);
});

/** The session ends on the server: the browser's cookie no longer opens anything. */
const endSessions = () => server.db.deleteFrom('dashboard_sessions').execute();
const callsTo = (method: string, url: string) =>
  server.api().calls.filter((call) => call.method === method && call.url === url);

async function signedIn() {
  const admin = await server.insertAdmin();
  await server.signIn(admin.email);
  const session = await queryHarness().signedIn();
  return { admin, token: session?.csrfToken as string };
}

/** What the dialog does: signs in again (a new cookie and token), then lets the waiting requests go. */
async function signInAgain(email: string) {
  const session = await dataOf(api.POST('/api/v1/auth/session', { body: { email, password } }));
  if (!('csrfToken' in session)) throw new Error('a second factor was asked for');
  setCsrfToken(session.csrfToken);
  reauthenticated();
  return session.csrfToken;
}

const waitingForSignIn = () => vi.waitFor(() => expect(reauthState()).toEqual({ open: true }));

describe('a request that meets an ended session', () => {
  it('waits for the sign-in and is sent again with the new token: the write lands once', async () => {
    const { admin, token } = await signedIn();
    await endSessions();
    const created = dataOf(api.POST('/api/v1/site', { body: { name: 'Ferry news', slug: 'ferry-news' } }));
    await waitingForSignIn();
    expect(await server.db.selectFrom('sites').where('slug', '=', 'ferry-news').execute()).toEqual([]);

    const newToken = await signInAgain(admin.email);
    expect(await created).toMatchObject({ slug: 'ferry-news' });
    expect(reauthState()).toEqual({ open: false });
    const posts = callsTo('POST', '/api/v1/site');
    expect(posts.map((call) => call.status)).toEqual([401, 201]);
    expect(posts.map((call) => call.headers['x-csrf-token'])).toEqual([token, newToken]);
    expect(newToken).not.toBe(token);
    expect(await server.db.selectFrom('sites').where('slug', '=', 'ferry-news').execute()).toHaveLength(1);
  });

  it('sends every waiting request again after one sign-in, reads and writes alike', async () => {
    const { admin } = await signedIn();
    await endSessions();
    const read = dataOf(api.GET('/api/v1/site'));
    const write = dataOf(api.POST('/api/v1/site', { body: { name: 'Tide tables', slug: 'tide-tables' } }));
    await waitingForSignIn();
    await signInAgain(admin.email);
    const [list, site] = await Promise.all([read, write]);
    expect(list.data).toEqual(expect.any(Array));
    expect(site).toMatchObject({ slug: 'tide-tables' });
    expect(callsTo('GET', '/api/v1/site').map((call) => call.status)).toEqual([401, 200]);
  });

  it('fails with its 401 when the person gives up (signs out of the dialog)', async () => {
    await signedIn();
    await endSessions();
    const answer = api.GET('/api/v1/site').catch((error: unknown) => error);
    await waitingForSignIn();
    reauthAbandoned();
    const error = await answer;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    expect(callsTo('GET', '/api/v1/site')).toHaveLength(1);
  });

  it('stops waiting, alone, when its caller cancels it (the view was left)', async () => {
    const { admin } = await signedIn();
    await endSessions();
    const controller = new AbortController();
    const cancelled = api.GET('/api/v1/site', { signal: controller.signal }).catch((error: unknown) => error);
    const other = dataOf(api.GET('/api/v1/webhooks'));
    await waitingForSignIn();
    controller.abort();
    expect(await cancelled).toMatchObject({ name: 'AbortError' });
    // The other request still waits, and goes once the person is back.
    expect(reauthState()).toEqual({ open: true });
    await signInAgain(admin.email);
    expect((await other).data).toEqual(expect.any(Array));
    expect(callsTo('GET', '/api/v1/site')).toHaveLength(1);
  });
});

describe('a 401 that is an answer, not an ended session', () => {
  it('fails at once when no dialog can ask for a sign-in', async () => {
    unsubscribe();
    await signedIn();
    await endSessions();
    expect(await api.GET('/api/v1/site').catch((error: unknown) => error)).toMatchObject({ status: 401 });
    expect(reauthState()).toEqual({ open: false });
  });

  it('fails at once for a page that was never signed in (no token in memory)', async () => {
    expect(csrfToken()).toBeNull();
    expect(await api.GET('/api/v1/site').catch((error: unknown) => error)).toMatchObject({ status: 401 });
    expect(reauthState()).toEqual({ open: false });
  });

  it('fails at once on the session routes: a wrong password and the session read are results', async () => {
    const { admin } = await signedIn();
    const wrong = api.POST('/api/v1/auth/session', {
      body: { email: admin.email, password: 'not it at all' },
    });
    expect(await wrong.catch((error: unknown) => error)).toMatchObject({ status: 401 });
    await endSessions();
    expect(await api.GET('/api/v1/auth/session').catch((error: unknown) => error)).toMatchObject({
      status: 401,
    });
    expect(reauthState()).toEqual({ open: false });
  });

  it('fails at once when the page signed out while the request was under way', async () => {
    await signedIn();
    await endSessions();
    // Signing out forgets the token before the answer comes.
    const answer = api.GET('/api/v1/site').catch((error: unknown) => error);
    setCsrfToken(null);
    expect(await answer).toMatchObject({ status: 401 });
    expect(reauthState()).toEqual({ open: false });
  });
});
