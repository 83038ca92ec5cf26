import { describe, expect, it } from 'vitest';
import { insertArticle, insertSite } from '../../../api/test/support/content-fixtures';
import {
  articleKeys,
  articlePreviewQuery,
  articleQuery,
  articlesQuery,
  fetchArticle,
  saveArticle,
  slugAvailabilityQuery,
  useArticleTransition,
  useBulkArticles,
  useCreateArticle,
  useDeleteArticle,
  useSaveArticle,
} from '../../src/api/articles';
import { setUpDashboardApi } from '../support/dashboard-test-app';
import { adminHarnessPerTest } from '../support/query-harness';

// The articles query module against the real API: the key family (lists, editors, slug checks and the
// review queue all under `articles`), conditional saves with the article's version (If-Match / ETag),
// and what each change refreshes.

const server = await setUpDashboardApi();
const harness = adminHarnessPerTest(server);

const stored = (id: string) =>
  server.db.selectFrom('articles').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const lists = articleKeys.lists();
const queue = articleKeys.reviewQueue();

describe('article keys', () => {
  it('put lists, editors, slug checks and the review queue under one articles key', () => {
    const filters = { status: 'draft' as const, page: 2 };
    expect(articlesQuery(filters).queryKey).toEqual(['articles', 'list', filters]);
    expect(articleQuery('a1').queryKey).toEqual(['articles', 'detail', 'a1']);
    // The preview reads the editor's entry: one cache entry per article, one shape.
    expect(articlePreviewQuery('a1').queryKey).toEqual(articleQuery('a1').queryKey);
    expect(slugAvailabilityQuery('s', undefined).queryKey).toEqual(['articles', 'slug', 's', '']);
    for (const key of [articleKeys.pending(undefined), articleKeys.pendingCount()])
      expect(key.slice(0, 2)).toEqual(queue);
  });
});

describe('article queries', () => {
  it('sends the filters as the API takes them: a publisher id apart from manual or imported', async () => {
    await harness().queryClient.fetchQuery(articlesQuery({ origin: 'imported', status: 'draft' }));
    expect(server.api().calls.at(-1)?.url).toBe(
      '/api/v1/article?status=draft&origin=imported&page=1&limit=20',
    );
    const publisherId = '00000000-0000-4000-8000-000000000001';
    await harness().queryClient.fetchQuery(articlesQuery({ origin: publisherId, q: 'ferry', page: 3 }));
    expect(server.api().calls.at(-1)?.url).toBe(
      `/api/v1/article?q=ferry&publisherId=${publisherId}&page=3&limit=20`,
    );
  });

  it('reads an article with its version; the preview reads the same entry, the article alone', async () => {
    const { id } = await insertArticle(server.db, { status: 'draft', title: 'Ferry timetable' });
    const versioned = await harness().queryClient.fetchQuery(articleQuery(id));
    expect(versioned.article).toMatchObject({ id, title: 'Ferry timetable' });
    expect(versioned.etag).toMatch(/^"\w+"$/);
    expect(harness().queryClient.getQueryData(articlePreviewQuery(id).queryKey)).toEqual(versioned);
    expect(articlePreviewQuery(id).select?.(versioned)).toEqual(versioned.article);
  });

  it('says whether a slug is free, except for the article itself', async () => {
    const { id, slug } = await insertArticle(server.db, { status: 'draft' });
    const taken = await harness().queryClient.fetchQuery(slugAvailabilityQuery(slug, undefined));
    expect(taken.available).toBe(false);
    const own = await harness().queryClient.fetchQuery(slugAvailabilityQuery(slug, id));
    expect(own.available).toBe(true);
  });
});

describe('saving with the version', () => {
  it('saves against the version it was made on, and answers the new one', async () => {
    const { id } = await insertArticle(server.db, { status: 'draft', title: 'First' });
    const loaded = await fetchArticle(id);
    const saved = await saveArticle({ id, changes: { title: 'Second' }, ifMatch: loaded.etag });
    expect(server.api().calls.at(-1)?.headers['if-match']).toBe(loaded.etag);
    expect(saved.article.title).toBe('Second');
    expect(saved.etag).not.toBe(loaded.etag);
  });

  it('refuses a save on an older version (ARTICLE_CHANGED) and writes nothing; Overwrite sends none', async () => {
    const { id } = await insertArticle(server.db, { status: 'draft', title: 'First' });
    const loaded = await fetchArticle(id);
    await saveArticle({ id, changes: { title: 'By someone else' }, ifMatch: loaded.etag });
    const stale = await saveArticle({ id, changes: { title: 'Mine' }, ifMatch: loaded.etag }).catch((e) => e);
    expect(stale).toMatchObject({ status: 412, code: 'ARTICLE_CHANGED' });
    expect((await stored(id)).title).toBe('By someone else');

    const overwritten = await saveArticle({ id, changes: { title: 'Mine' }, ifMatch: null });
    expect(server.api().calls.at(-1)?.headers).not.toHaveProperty('if-match');
    expect(overwritten.article.title).toBe('Mine');
  });

  it('sends the host sites apart, and reads the article back when nothing else changed', async () => {
    const siteId = await insertSite(server.db, 'coast');
    const { id } = await insertArticle(server.db, { status: 'draft' });
    const hosted = await saveArticle({ id, changes: {}, hostSites: ['coast'], ifMatch: null });
    expect(hosted.article.hostSites).toEqual(['coast']);
    expect(server.api().calls.at(-1)).toMatchObject({
      method: 'POST',
      url: `/api/v1/article/host-site/${id}`,
    });
    expect(siteId).toEqual(expect.any(String));

    const unchanged = await saveArticle({ id, changes: {}, ifMatch: null });
    expect(server.api().calls.at(-1)).toMatchObject({ method: 'GET', url: `/api/v1/article/${id}` });
    expect(unchanged.etag).toBe(hosted.etag);
  });
});

describe('article mutations', () => {
  it('creates a draft and refreshes the lists only (silent: the editor shows errors)', async () => {
    harness().prime(lists, articleKeys.detail('other'), queue);
    const created = await harness().run(
      harness().hook(() => useCreateArticle()),
      { title: 'Storm warning for the coast' },
    );
    expect(created).toMatchObject({ title: 'Storm warning for the coast', status: 'draft' });
    expect(harness().invalidated(lists, articleKeys.detail('other'), queue)).toEqual([lists]);
    expect(harness().queryClient.getMutationCache().getAll()[0]?.meta).toEqual({ silent: true });
  });

  it('saves: the editor holds the new version, the lists are refreshed', async () => {
    const { id } = await insertArticle(server.db, { status: 'draft' });
    const loaded = await fetchArticle(id);
    harness().prime(lists, queue);
    const saved = await harness().run(
      harness().hook(() => useSaveArticle()),
      { id, changes: { category: 'Local' }, ifMatch: loaded.etag },
    );
    expect(harness().queryClient.getQueryData(articleKeys.detail(id))).toEqual(saved);
    expect(harness().invalidated(lists, queue)).toEqual([lists]);
  });

  it('publishes and unpublishes: the editor holds the version read back, the lists are refreshed', async () => {
    const { id } = await insertArticle(server.db, { status: 'draft' });
    const transition = harness().hook(() => useArticleTransition());
    for (const [action, status] of [
      ['publish', 'published'],
      ['unpublish', 'draft'],
    ] as const) {
      harness().prime(lists);
      const saved = await harness().run(transition, { id, action });
      expect(saved.article.status).toBe(status);
      expect(saved.etag).toEqual(expect.any(String));
      expect(harness().queryClient.getQueryData(articleKeys.detail(id))).toEqual(saved);
      expect(harness().invalidated(lists)).toEqual([lists]);
    }
  });

  it('deletes: the editor entry leaves the cache, the lists are refreshed', async () => {
    const { id } = await insertArticle(server.db, { status: 'draft' });
    harness().prime(articleKeys.detail(id), lists);
    await harness().run(
      harness().hook(() => useDeleteArticle()),
      id,
    );
    expect(harness().queryClient.getQueryState(articleKeys.detail(id))).toBeUndefined();
    expect(harness().invalidated(lists)).toEqual([lists]);
    expect(await server.db.selectFrom('articles').where('id', '=', id).execute()).toEqual([]);
  });

  it('acts on many at once, one result each, and refreshes every article query and the review queue', async () => {
    const one = await insertArticle(server.db, { status: 'draft' });
    const two = await insertArticle(server.db, { status: 'published' });
    harness().prime(lists, articleKeys.detail(one.id), queue, articleKeys.pendingCount());
    const results = await harness().run(
      harness().hook(() => useBulkArticles()),
      { action: 'publish', ids: [one.id, two.id] },
    );
    expect(results.results.map((result) => result.ok)).toEqual([true, false]);
    expect(
      harness().invalidated(lists, articleKeys.detail(one.id), queue, articleKeys.pendingCount()),
    ).toHaveLength(4);
  });
});
