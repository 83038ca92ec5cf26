import { afterEach, describe, expect, it } from 'vitest';
import {
  importStatusQuery,
  publisherArticlesQuery,
  publisherChoicesQuery,
  publisherKeys,
  publisherQuery,
  publishersQuery,
  useCreatePublisher,
  useDeletePublisher,
  usePublisherAction,
  usePublisherTestFeed,
  useResetPublisherPassword,
  useResumeFeed,
  useStartImport,
  useUpdatePublisher,
} from '../../src/api/publishers';
import { setCsrfToken } from '../../src/lib/csrf-token';
import { setUpDashboardApi } from '../support/dashboard-test-app';
import { queryHarness } from '../support/query-harness';

// The publishers query module against the real API, as an administrator: the key family (lists, one
// publisher and what hangs under it), and what each action refreshes.

const server = await setUpDashboardApi();
afterEach(() => setCsrfToken(null));

async function asAdmin() {
  const harness = queryHarness();
  const admin = await server.insertAdmin();
  await server.signIn(admin.email);
  await harness.signedIn();
  return harness;
}

let counter = 0;
const unique = (label: string) => `${label} ${++counter}-${Math.random().toString(36).slice(2, 6)}`;

describe('publisher keys', () => {
  it('put every list (filters and choices) under one lists key, and each publisher’s parts under it', () => {
    const filters = { state: 'awaiting' as const, q: 'bay', page: 2 };
    expect(publishersQuery(filters).queryKey).toEqual(['publishers', 'list', filters]);
    expect(publisherChoicesQuery.queryKey.slice(0, 2)).toEqual(publisherKeys.lists());
    expect(publisherQuery('p1').queryKey).toEqual(publisherKeys.detail('p1'));
    expect(publisherArticlesQuery('p1').queryKey.slice(0, 3)).toEqual(publisherKeys.detail('p1'));
    expect(importStatusQuery('p1', 'j1', 0).queryKey).toEqual(['publishers', 'detail', 'p1', 'import', 'j1']);
  });
});

describe('publisher queries', () => {
  it('lists by filter with the page size, and offers every publisher by name as choices', async () => {
    const harness = await asAdmin();
    const name = unique('Bayside Gazette');
    const publisher = await server.insertPublisher({ name });
    const page = await harness.queryClient.fetchQuery(publishersQuery({ q: name, state: 'awaiting' }));
    expect(page.data.map((item) => item.id)).toEqual([publisher.publisherId]);
    expect(server.api().calls.at(-1)?.url).toBe(
      `/api/v1/publisher?state=awaiting&q=${encodeURIComponent(name).replaceAll('%20', '+')}&page=1&limit=20`,
    );
    const choices = await harness.queryClient.fetchQuery(publisherChoicesQuery);
    const names = choices.data.map((item) => item.name);
    expect(names).toContain(name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
  });

  it('reads one publisher and its recent articles', async () => {
    const harness = await asAdmin();
    const publisher = await server.insertPublisher({ approved: true });
    const detail = await harness.queryClient.fetchQuery(publisherQuery(publisher.publisherId));
    expect(detail).toMatchObject({ id: publisher.publisherId, state: 'approved', email: publisher.email });
    const articles = await harness.queryClient.fetchQuery(publisherArticlesQuery(publisher.publisherId));
    expect(articles.data).toEqual([]);
  });
});

describe('publisher mutations', () => {
  it('creates a publisher: its page holds the answer, every publisher query is refreshed', async () => {
    const harness = await asAdmin();
    harness.prime(publisherKeys.lists(), publisherKeys.choices(), publisherKeys.detail('other'));
    const created = await harness.run(
      harness.hook(() => useCreatePublisher()),
      {
        name: unique('Harbour Desk'),
        email: `${unique('desk').replace(' ', '-')}@example.com`,
        password: 'a long enough password',
      },
    );
    expect(harness.queryClient.getQueryData(publisherKeys.detail(created.id))).toEqual(created);
    expect(
      harness.invalidated(publisherKeys.lists(), publisherKeys.choices(), publisherKeys.detail('other')),
    ).toEqual([publisherKeys.lists(), publisherKeys.choices(), publisherKeys.detail('other')]);
  });

  it('approves, disables and enables: the page holds each answer, the lists are refreshed', async () => {
    const harness = await asAdmin();
    const { publisherId } = await server.insertPublisher();
    const action = harness.hook(() => usePublisherAction());
    for (const [verb, state] of [
      ['approve', 'approved'],
      ['disable', 'disabled'],
      ['enable', 'approved'],
    ] as const) {
      harness.prime(publisherKeys.lists());
      const answer = await harness.run(action, { id: publisherId, action: verb });
      expect(answer.state).toBe(state);
      expect(harness.queryClient.getQueryData(publisherKeys.detail(publisherId))).toEqual(answer);
      expect(harness.invalidated(publisherKeys.lists())).toEqual([publisherKeys.lists()]);
    }
  });

  it('updates settings: the page holds the answer, the lists are refreshed, other publishers are not', async () => {
    const harness = await asAdmin();
    const { publisherId } = await server.insertPublisher({ approved: true });
    harness.prime(publisherKeys.lists(), publisherKeys.detail('other'));
    const update = harness.hook(() => useUpdatePublisher(publisherId));
    const saved = await harness.run(update, { autoApprove: true, defaultTags: ['harbour'] });
    expect(saved).toMatchObject({ autoApprove: true, defaultTags: ['harbour'] });
    expect(harness.queryClient.getQueryData(publisherQuery(publisherId).queryKey)).toEqual(saved);
    expect(harness.invalidated(publisherKeys.lists(), publisherKeys.detail('other'))).toEqual([
      publisherKeys.lists(),
    ]);
  });

  it('resumes a feed: the page holds the answer and the lists are refreshed', async () => {
    const harness = await asAdmin();
    const { publisherId } = await server.insertPublisher({ approved: true });
    harness.prime(publisherKeys.lists());
    const resumed = await harness.run(
      harness.hook(() => useResumeFeed(publisherId)),
      undefined,
    );
    expect(resumed.id).toBe(publisherId);
    expect(harness.queryClient.getQueryData(publisherKeys.detail(publisherId))).toEqual(resumed);
    expect(harness.invalidated(publisherKeys.lists())).toEqual([publisherKeys.lists()]);
  });

  it('deletes a publisher: its page leaves the cache, every other publisher query is refreshed', async () => {
    const harness = await asAdmin();
    const { publisherId } = await server.insertPublisher();
    harness.prime(publisherKeys.detail(publisherId), publisherKeys.lists());
    await harness.run(
      harness.hook(() => useDeletePublisher()),
      publisherId,
    );
    expect(harness.queryClient.getQueryState(publisherKeys.detail(publisherId))).toBeUndefined();
    expect(harness.invalidated(publisherKeys.lists())).toEqual([publisherKeys.lists()]);
    const gone = await harness.queryClient.fetchQuery(publisherQuery(publisherId)).catch((error) => error);
    expect(gone).toMatchObject({ status: 404 });
  });

  it('sets a new password the publisher can sign in with', async () => {
    const harness = await asAdmin();
    const publisher = await server.insertPublisher({ approved: true });
    await harness.run(
      harness.hook(() => useResetPublisherPassword(publisher.publisherId)),
      'a brand new password for the desk',
    );
    const signIn = await server.api().fetch('/api/v1/auth/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: publisher.email, password: 'a brand new password for the desk' }),
    });
    expect(signIn.status).toBe(200);
  });

  it('says why a feed cannot be tested, in place (silent): no saved address', async () => {
    const harness = await asAdmin();
    const { publisherId } = await server.insertPublisher({ approved: true });
    const test = harness.hook(() => usePublisherTestFeed(publisherId));
    const refused = await harness.run(test, undefined).catch((error) => error);
    expect(refused).toMatchObject({ status: 400, code: 'FEED_URL_REQUIRED' });
    expect(harness.queryClient.getMutationCache().getAll()[0]?.meta).toEqual({ silent: true });
  });

  it('queues an import and reads its job until it ends', async () => {
    const harness = await asAdmin();
    const { publisherId } = await server.insertPublisher({ approved: true });
    await server.db
      .updateTable('publishers')
      .set({ feed_url: 'https://feeds.example.com/news.rss' })
      .where('id', '=', publisherId)
      .execute();
    const job = await harness.run(
      harness.hook(() => useStartImport(publisherId)),
      undefined,
    );
    expect(job.jobId).toEqual(expect.any(String));
    const status = await harness.queryClient.fetchQuery(
      importStatusQuery(publisherId, job.jobId, Date.now()),
    );
    // No worker runs here: the job waits in its queue.
    expect(status.state).toBe('waiting');
  });
});
