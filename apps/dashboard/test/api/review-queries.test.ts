import { beforeEach, describe, expect, it } from 'vitest';
import { insertArticle } from '../../../api/test/support/content-fixtures';
import { articleKeys, fetchArticle } from '../../src/api/articles';
import {
  pendingCountQuery,
  pendingQuery,
  reviewPageSize,
  useReviewMany,
  useReviewOne,
  useReviewTransition,
  useUndoReview,
} from '../../src/api/review';
import { setUpDashboardApi } from '../support/dashboard-test-app';
import { adminHarnessPerTest } from '../support/query-harness';

// The review queue's query module against the real API: the pending list and its count, and the
// decisions (one, many, taken back, from the editor) with what each refreshes.

const server = await setUpDashboardApi();
const harness = adminHarnessPerTest(server);
beforeEach(async () => {
  await server.db.deleteFrom('articles').execute();
});

const statusOf = async (id: string) =>
  (await server.db.selectFrom('articles').select('status').where('id', '=', id).executeTakeFirstOrThrow())
    .status;
const pending = () => insertArticle(server.db, { status: 'pending', aggregated: true });
const everything = [
  articleKeys.lists(),
  articleKeys.detail('a'),
  articleKeys.pending(undefined),
  articleKeys.pendingCount(),
];

describe('the review queue', () => {
  it('lists the pending articles, a page at a time, and counts them for the badge', async () => {
    const [first, second] = [await pending(), await pending()];
    const page = await harness().queryClient.fetchQuery(pendingQuery(undefined));
    expect(page.data.map((article) => article.id).sort()).toEqual([first.id, second.id].sort());
    expect(server.api().calls.at(-1)?.url).toBe(`/api/v1/article/pending?limit=${reviewPageSize}`);
    await harness().queryClient.fetchQuery(pendingCountQuery);
    expect(server.api().calls.at(-1)?.url).toBe('/api/v1/article/pending?limit=1');
    const raw = harness().queryClient.getQueryData(pendingCountQuery.queryKey);
    expect(raw && pendingCountQuery.select?.(raw)).toBe(2);
  });

  it("filters by publisher (a publisher's own queue)", async () => {
    const publisherId = '00000000-0000-4000-8000-000000000002';
    const page = await harness().queryClient.fetchQuery(pendingQuery(publisherId));
    expect(page.data).toEqual([]);
    expect(server.api().calls.at(-1)?.url).toBe(
      `/api/v1/article/pending?publisherId=${publisherId}&limit=50`,
    );
  });
});

describe('review decisions', () => {
  it('approves one with a reason; every article query and the queue are refreshed, even after a refusal', async () => {
    const { id } = await pending();
    harness().prime(...everything);
    const review = harness().hook(() => useReviewOne());
    await harness().run(review, { id, action: 'approve', reason: '  Well sourced  ' });
    expect(await statusOf(id)).toBe('published');
    expect(server.api().calls.at(-1)).toMatchObject({ method: 'PUT', url: `/api/v1/article/approve/${id}` });
    expect(harness().invalidated(...everything)).toEqual(everything);

    // Deciding again is refused (no longer pending); the queue is read again all the same.
    harness().prime(...everything);
    const refused = await harness()
      .run(review, { id, action: 'reject' })
      .catch((error) => error);
    expect(refused).toMatchObject({ status: 409 });
    expect(harness().invalidated(...everything)).toEqual(everything);
  });

  it('rejects many in one request, one result each, and takes them back with Undo', async () => {
    const [one, two] = [await pending(), await pending()];
    const many = await harness().run(
      harness().hook(() => useReviewMany()),
      { ids: [one.id, two.id], action: 'reject', reason: 'Off topic' },
    );
    expect(many.results.map((result) => result.ok)).toEqual([true, true]);
    expect([await statusOf(one.id), await statusOf(two.id)]).toEqual(['rejected', 'rejected']);

    harness().prime(...everything);
    const undone = await harness().run(
      harness().hook(() => useUndoReview()),
      [one.id, two.id],
    );
    expect(undone.results.map((result) => result.ok)).toEqual([true, true]);
    expect([await statusOf(one.id), await statusOf(two.id)]).toEqual(['pending', 'pending']);
    expect(harness().invalidated(...everything)).toEqual(everything);
  });

  it('decides from the editor: it holds the version read back; the lists and queue refresh, not the editor', async () => {
    const { id } = await pending();
    const before = await fetchArticle(id);
    harness().queryClient.setQueryData(articleKeys.detail(id), before);
    harness().prime(articleKeys.lists(), articleKeys.pending(undefined), articleKeys.pendingCount());
    const transition = harness().hook(() => useReviewTransition());
    const saved = await harness().run(transition, { id, action: 'reject', reason: 'Duplicate' });
    expect(saved.article.status).toBe('rejected');
    expect(saved.etag).not.toBe(before.etag);
    expect(harness().queryClient.getQueryData(articleKeys.detail(id))).toEqual(saved);
    expect(harness().queryClient.getQueryState(articleKeys.detail(id))?.isInvalidated).toBe(false);
    expect(
      harness().invalidated(articleKeys.lists(), articleKeys.pending(undefined), articleKeys.pendingCount()),
    ).toHaveLength(3);

    const back = await harness().run(transition, { id, action: 'back-to-pending' });
    expect(back.article.status).toBe('pending');
    expect(
      server
        .api()
        .calls.filter((call) => call.method === 'PUT')
        .map((call) => call.url),
    ).toEqual([`/api/v1/article/reject/${id}`, `/api/v1/article/back-to-pending/${id}`]);
  });
});
