import { afterEach, describe, expect, it } from 'vitest';
import {
  ownArticlesQuery,
  ownKeys,
  ownPublisherQuery,
  useResumeOwnFeed,
  useSaveFeed,
  useTestFeed,
} from '../../src/api/own-publisher';
import { reportKeys, reportQuery } from '../../src/api/reports';
import {
  type Session,
  sessionKeys,
  sessionQuery,
  useChangeOwnPassword,
  useReauthenticate,
  useSignIn,
  useSignOut,
} from '../../src/api/session';
import { csrfToken, setCsrfToken } from '../../src/lib/csrf-token';
import { reauthState, subscribeReauth, waitForSignIn } from '../../src/lib/reauth';
import { password, setUpDashboardApi } from '../support/dashboard-test-app';
import { queryHarness } from '../support/query-harness';

// The session, the publisher's own account and the reports, as query modules against the real API:
// where the CSRF token comes from and goes, what signing in and out does to the cache, and the
// publisher's own feed.

const server = await setUpDashboardApi();
afterEach(() => setCsrfToken(null));

describe('the session', () => {
  it('is null without a cookie (and no token is kept); with one, it hands the CSRF token to the client', async () => {
    const harness = queryHarness();
    expect(await harness.queryClient.fetchQuery(sessionQuery)).toBeNull();
    expect(csrfToken()).toBeNull();
    const admin = await server.insertAdmin();
    await server.signIn(admin.email);
    const session = await queryHarness().signedIn();
    expect(session?.user).toMatchObject({ email: admin.email, role: 'admin' });
    expect(csrfToken()).toBe(session?.csrfToken);
    expect(sessionQuery.queryKey).toEqual(sessionKeys.session);
  });

  it("signs in: the token is kept, the previous person's cached data is dropped, the session stays", async () => {
    const harness = queryHarness();
    const admin = await server.insertAdmin();
    harness.queryClient.setQueryData(sessionKeys.session, null);
    harness.prime(['publishers', 'list'], ['sites', 'list']);
    const session = (await harness.run(
      harness.hook(() => useSignIn()),
      { email: admin.email, password },
    )) as Session;
    expect(csrfToken()).toBe(session.csrfToken);
    expect(harness.queryClient.getQueryData(sessionKeys.session)).toEqual(session);
    expect(
      harness.queryClient
        .getQueryCache()
        .getAll()
        .map((query) => query.queryKey),
    ).toEqual([sessionKeys.session]);
  });

  it('signs in again over a view as the same person: the cache stays; as someone else it is not taken over', async () => {
    const harness = queryHarness();
    const admin = await server.insertAdmin();
    await server.signIn(admin.email);
    const before = await harness.signedIn();
    harness.prime(['publishers', 'list']);
    const reauth = harness.hook(() => useReauthenticate());
    const again = (await harness.run(reauth, { email: admin.email, password })) as Session;
    expect(again.csrfToken).not.toBe(before?.csrfToken);
    expect(csrfToken()).toBe(again.csrfToken);
    expect(harness.queryClient.getQueryData(sessionKeys.session)).toEqual(again);
    expect(harness.queryClient.getQueryData(['publishers', 'list'])).toBeDefined();

    const other = await server.insertAdmin();
    const someoneElse = (await harness.run(reauth, { email: other.email, password })) as Session;
    // The caller reloads the app for them: the cached session is still the first person's.
    expect(harness.queryClient.getQueryData(sessionKeys.session)).toEqual(again);
    expect(csrfToken()).toBe(someoneElse.csrfToken);
  });

  it('signs out: the session ends on the server, the cache is emptied, a request waiting to resend fails', async () => {
    const harness = queryHarness();
    const admin = await server.insertAdmin();
    await server.signIn(admin.email);
    await harness.signedIn();
    harness.prime(['publishers', 'list']);
    const unsubscribe = subscribeReauth(() => {});
    const waiting = waitForSignIn(new Error('the 401')).catch((error: unknown) => error);
    expect(reauthState()).toEqual({ open: true });

    await harness.run(
      harness.hook(() => useSignOut()),
      undefined,
    );
    unsubscribe();
    expect(await waiting).toEqual(new Error('the 401'));
    expect(reauthState()).toEqual({ open: false });
    expect(csrfToken()).toBeNull();
    expect(
      harness.queryClient
        .getQueryCache()
        .getAll()
        .map((query) => query.queryKey),
    ).toEqual([sessionKeys.session]);
    expect(harness.queryClient.getQueryData(sessionKeys.session)).toBeNull();
    expect((await server.api().fetch('/api/v1/auth/session')).status).toBe(401);
  });

  it('changes the own password with the current one; a wrong current one is refused', async () => {
    const harness = queryHarness();
    const admin = await server.insertAdmin();
    await server.signIn(admin.email);
    await harness.signedIn();
    const change = harness.hook(() => useChangeOwnPassword());
    const refused = await harness
      .run(change, { currentPassword: 'not the password', newPassword: 'another long password' })
      .catch((error) => error);
    expect(refused).toMatchObject({ status: 401 });
    await harness.run(change, { currentPassword: password, newPassword: 'another long password' });
    // This session stays signed in.
    expect((await server.api().fetch('/api/v1/auth/session')).status).toBe(200);
  });
});

describe("the publisher's own account", () => {
  async function asPublisher() {
    const harness = queryHarness();
    const publisher = await server.insertPublisher({ approved: true });
    await server.signIn(publisher.email);
    await harness.signedIn();
    return { harness, publisher };
  }

  it('reads its own publisher and articles by status and page', async () => {
    const { harness, publisher } = await asPublisher();
    const me = await harness.queryClient.fetchQuery(ownPublisherQuery);
    expect(me.id).toBe(publisher.publisherId);
    const articles = await harness.queryClient.fetchQuery(ownArticlesQuery('pending', 2));
    expect(articles.data).toEqual([]);
    expect(server.api().calls.at(-1)?.url).toBe(
      '/api/v1/publisher/me/articles?status=pending&page=2&limit=20',
    );
    expect(ownArticlesQuery(undefined, 1).queryKey).toEqual(['me', 'articles', 'all', 1]);
  });

  it('saves its feed and resumes it: the own publisher in the cache is the answer', async () => {
    const { harness } = await asPublisher();
    const saved = await harness.run(
      harness.hook(() => useSaveFeed()),
      { feedUrl: 'https://feeds.example.com/harbour.rss', defaultTags: ['harbour'] },
    );
    expect(saved).toMatchObject({
      feedUrl: 'https://feeds.example.com/harbour.rss',
      defaultTags: ['harbour'],
    });
    expect(harness.queryClient.getQueryData(ownKeys.me)).toEqual(saved);
    const resumed = await harness.run(
      harness.hook(() => useResumeOwnFeed()),
      undefined,
    );
    expect(harness.queryClient.getQueryData(ownKeys.me)).toEqual(resumed);
  });

  it('says why an address cannot be tested, in the form (silent)', async () => {
    const { harness } = await asPublisher();
    const refused = await harness
      .run(
        harness.hook(() => useTestFeed()),
        'ftp://feeds.example.com/news',
      )
      .catch((error) => error);
    expect(refused).toMatchObject({ status: 422, message: expect.stringMatching(/http and https/) });
    expect(harness.queryClient.getMutationCache().getAll()[0]?.meta).toEqual({ silent: true });
  });
});

describe('the reports', () => {
  it('counts articles per publisher per month over the range, keyed by it', async () => {
    const harness = queryHarness();
    const admin = await server.insertAdmin();
    await server.signIn(admin.email);
    await harness.signedIn();
    const range = { from: '2026-01', to: '2026-03' };
    expect(reportQuery(range).queryKey).toEqual([...reportKeys.all, 'monthly', '2026-01', '2026-03']);
    const report = await harness.queryClient.fetchQuery(reportQuery(range));
    expect(report.months).toEqual(['2026-01', '2026-02', '2026-03']);
    expect(server.api().calls.at(-1)?.url).toBe('/api/v1/publisher/reports?from=2026-01&to=2026-03');
  });
});
