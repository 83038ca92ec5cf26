import { setTimeout as sleep } from 'node:timers/promises';
import { loadWorkerConfig } from '@newsroom/config';
import {
  changeArticleStatus,
  claimDueCdnPurges,
  completeCdnPurges,
  createArticle,
  createSite,
  editArticle,
  editSite,
  importFeedItems,
  upsertCdnPurges,
} from '@newsroom/domain';
import { createMetricsRegistry } from '@newsroom/metrics';
import { createTestDatabase } from '@newsroom/test-support';
import { sql } from 'kysely';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPurgeWorker } from '../src/purge/purge-worker';
import { createRateGate } from '../src/purge/rate-gate';
import { keysOf, providerOf, type RecordedPurge, startPurgeRecorder } from './support/purge-recorder';
import { insertPublisher } from './support/worker-harness';

// The purge relay (issue 33): article changes in the outbox and site changes become CDN purges of exactly the
// surrogate keys they touch, batched per provider to its limits, retried, coalesced. The three providers'
// APIs are one loopback server here (their request shapes are checked on it).

vi.setConfig({ testTimeout: 30_000 });

const database = await createTestDatabase();
const { db } = database;
const recorder = await startPurgeRecorder();
const config = loadWorkerConfig({
  NODE_ENV: 'test',
  DATABASE_URL: database.url,
  REDIS_URL: 'redis://127.0.0.1:6379',
  PURGE_VARNISH_URLS: recorder.url,
  PURGE_FASTLY_SERVICE_ID: 'svc-1',
  PURGE_FASTLY_TOKEN: 'fastly-token',
  PURGE_FASTLY_API_URL: recorder.url,
  PURGE_FASTLY_REQUESTS_PER_SECOND: '1000',
  PURGE_CLOUDFLARE_ZONE_ID: 'zone-1',
  PURGE_CLOUDFLARE_TOKEN: 'cf-token',
  PURGE_CLOUDFLARE_API_URL: `${recorder.url}/client/v4`,
  PURGE_CLOUDFLARE_REQUESTS_PER_SECOND: '1000',
  PURGE_RELAY_INTERVAL_MS: '60000',
  PURGE_TIMEOUT_MS: '2000',
});
const registry = createMetricsRegistry();
const purges = createPurgeWorker({ config, db, metricsRegistry: registry });
if (!purges) throw new Error('the config names three providers');
afterAll(async () => {
  await purges.close();
  await recorder.close();
  await database.destroy();
});
beforeEach(async () => {
  // Anything earlier tests left for the relay is sent before each test starts counting (bounded: the outbox
  // horizon may trail on a busy server).
  for (const deadline = Date.now() + 20_000; ; await sleep(25)) {
    await purges.runNow();
    const { rows } = await sql<{ passed: boolean; pending: number }>`
      select (select xid from cdn_purge_position) > coalesce((select max(xid) from article_changes), '0'::xid8) as passed,
             (select count(*)::int from cdn_purges where next_attempt_at <= now()) as pending`.execute(db);
    if (rows[0]?.passed && rows[0].pending === 0) break;
    if (Date.now() > deadline) throw new Error('the purge relay did not catch up within 20 s');
  }
  recorder.respondWith(() => ({ status: 200 }));
  recorder.clear();
});

const siteA = await createSite(db, { slug: 'purge-a', name: 'A', domain: null });
const siteB = await createSite(db, { slug: 'purge-b', name: 'B', domain: null });
const content = (title: string) => ({
  title,
  body: `<p>${title}</p>`,
  tags: [],
  category: null,
  section: null,
  thumbnail: null,
  image: null,
});

/** Runs the relay until each provider has been sent `keys` (bounded: the outbox horizon may trail). */
async function purgedKeys(
  expected: readonly string[],
  providers: readonly string[] = ['varnish', 'fastly', 'cloudflare'],
): Promise<Record<string, string[]>> {
  const byProvider = () => {
    const seen: Record<string, string[]> = { varnish: [], fastly: [], cloudflare: [] };
    for (const request of recorder.requests) seen[providerOf(request)]?.push(...keysOf(request));
    for (const keys of Object.values(seen)) keys.sort();
    return seen;
  };
  for (const deadline = Date.now() + 15_000; Date.now() < deadline; await sleep(50)) {
    await purges?.runNow();
    const seen = byProvider();
    if (providers.every((name) => expected.every((key) => seen[name]?.includes(key)))) return seen;
  }
  throw new Error(`not purged within 15 s: ${expected.join(' ')}; got ${JSON.stringify(byProvider())}`);
}

const exactly = (keys: string[]) => {
  const sorted = [...keys].sort();
  return { varnish: sorted, fastly: sorted, cloudflare: sorted };
};

describe('purges from the outbox', () => {
  it('a publish purges the article and its site lists, nothing of another site', async () => {
    const article = await createArticle(db, content('Harbour reopens'), [siteA.slug]);
    await changeArticleStatus(db, article.id, 'publish');
    const expected = [`article:${article.id}`, `list:${siteA.id}`];
    expect(await purgedKeys(expected)).toEqual(exactly(expected));
  });

  it('an unpublish and an edit purge the same, coalesced into one purge per key', async () => {
    const article = await createArticle(db, content('Storm warning'), [siteA.slug, siteB.slug]);
    await changeArticleStatus(db, article.id, 'publish');
    await purgedKeys([`article:${article.id}`]);
    recorder.clear();
    await editArticle(db, article.id, { title: 'Storm warning lifted' });
    await changeArticleStatus(db, article.id, 'unpublish');
    const expected = [`article:${article.id}`, `list:${siteA.id}`, `list:${siteB.id}`];
    expect(await purgedKeys(expected)).toEqual(exactly(expected));
  });

  it('a site rename purges that site, and its articles only if their JSON changes', async () => {
    await editSite(db, siteB.id, { name: 'B renamed' });
    expect(await purgedKeys([`site:${siteB.id}`])).toEqual(exactly([`site:${siteB.id}`]));
  });

  it('an import purges the imported articles and the lists of its sites', async () => {
    const publisherId = await insertPublisher(db, { name: 'Wire', autoApprove: true });
    await db
      .insertInto('publisher_default_sites')
      .values({ publisher_id: publisherId, site_id: siteB.id })
      .execute();
    const item = (n: number) => ({
      guid: `wire-${n}`,
      title: `Wire story ${n}`,
      body: `<p>Wire ${n}</p>`,
      url: `https://wire.example/${n}`,
      thumbnail: null,
      image: null,
      categories: [],
      publishedAt: new Date(),
    });
    await importFeedItems(db, publisherId, {
      notModified: false,
      items: [item(1), item(2)],
      etag: null,
      lastModified: null,
    });
    const ids = (
      await db.selectFrom('articles').select('id').where('rss_feed_guid', 'like', 'wire-%').execute()
    ).map((row) => `article:${row.id}`);
    expect(ids).toHaveLength(2);
    const expected = [...ids, `list:${siteB.id}`];
    expect(await purgedKeys(expected)).toEqual(exactly(expected));
  });
});

describe('providers', () => {
  it('send the request shapes of Varnish xkey, Fastly and Cloudflare', async () => {
    await upsertCdnPurges(
      db,
      ['varnish', 'fastly', 'cloudflare'],
      [{ key: 'list:shape', requestedAt: new Date() }],
    );
    await purgedKeys(['list:shape']);
    const by = (name: string) =>
      recorder.requests.find((request) => providerOf(request) === name) as RecordedPurge;
    expect(by('varnish')).toMatchObject({
      method: 'PURGE',
      path: '/',
      headers: { 'xkey-purge': 'list:shape' },
    });
    expect(by('fastly')).toMatchObject({
      method: 'POST',
      path: '/service/svc-1/purge',
      headers: { 'fastly-key': 'fastly-token', 'surrogate-key': 'list:shape' },
    });
    expect(by('cloudflare')).toMatchObject({
      method: 'POST',
      path: '/client/v4/zones/zone-1/purge_cache',
      headers: { authorization: 'Bearer cf-token', 'content-type': 'application/json' },
    });
    expect(JSON.parse(by('cloudflare').body)).toEqual({ tags: ['list:shape'] });
  });

  it('batch keys to each provider limit (Fastly 256, Cloudflare 100, Varnish 100)', async () => {
    const keys = Array.from({ length: 300 }, (_, n) => `article:batch-${String(n).padStart(3, '0')}`);
    await upsertCdnPurges(
      db,
      ['varnish', 'fastly', 'cloudflare'],
      keys.map((key) => ({ key, requestedAt: new Date() })),
    );
    await purgedKeys(keys);
    const sizes = (name: string) =>
      recorder.requests
        .filter((request) => providerOf(request) === name)
        .map((request) => keysOf(request).length);
    expect(sizes('fastly').sort((a, b) => b - a)).toEqual([256, 44]);
    expect(sizes('cloudflare')).toEqual([100, 100, 100]);
    expect(sizes('varnish')).toEqual([100, 100, 100]);
  });

  it('retry a refused batch (429 with Retry-After) without losing a key', async () => {
    let refusals = 0;
    recorder.respondWith((request) => {
      if (providerOf(request) === 'cloudflare' && refusals === 0) {
        refusals++;
        return { status: 429, headers: { 'retry-after': '0' } };
      }
      return { status: 200 };
    });
    await upsertCdnPurges(db, ['cloudflare'], [{ key: 'list:retried', requestedAt: new Date() }]);
    for (const deadline = Date.now() + 15_000; Date.now() < deadline; await sleep(100)) {
      await purges.runNow();
      const sent = recorder.requests.filter(
        (r) => providerOf(r) === 'cloudflare' && keysOf(r).includes('list:retried'),
      );
      if (sent.length >= 2) break;
    }
    const attempts = recorder.requests.filter((r) => providerOf(r) === 'cloudflare');
    expect(attempts.length).toBe(2);
    expect(await db.selectFrom('cdn_purges').selectAll().where('key', '=', 'list:retried').execute()).toEqual(
      [],
    );
    const text = await registry.metrics();
    expect(text).toMatch(/newsroom_worker_cdn_purges_total\{provider="cloudflare",result="failed"\} [1-9]/);
    expect(text).toMatch(/newsroom_worker_cdn_purge_lag_seconds_count\{provider="cloudflare"\} [1-9]/);
    expect(text).toMatch(/newsroom_worker_cdn_purge_backlog_seconds\{provider="cloudflare"\} 0/);
  });
});

describe('pending purges', () => {
  it('a key requested again while in flight is kept and sent again', async () => {
    await upsertCdnPurges(db, ['varnish'], [{ key: 'article:in-flight', requestedAt: new Date() }]);
    const claimed = await claimDueCdnPurges(db, 'varnish', 10, 60_000);
    expect(claimed.map((purge) => purge.key)).toContain('article:in-flight');
    // A change commits after the flight's purge reached the CDN: its request must not be deleted with it.
    await upsertCdnPurges(db, ['varnish'], [{ key: 'article:in-flight', requestedAt: new Date() }]);
    await completeCdnPurges(db, 'varnish', claimed);
    const left = await db
      .selectFrom('cdn_purges')
      .select(['key', 'claimed_until'])
      .where('key', '=', 'article:in-flight')
      .execute();
    expect(left).toEqual([{ key: 'article:in-flight', claimed_until: null }]);
    await purgedKeys(['article:in-flight'], ['varnish']);
  });

  it('the rate gate spaces requests to the provider limit', async () => {
    let now = 1_000;
    const slept: number[] = [];
    const gate = createRateGate(4, {
      now: () => now,
      sleep: async (ms) => {
        slept.push(ms);
        now += ms;
      },
    });
    for (let n = 0; n < 4; n++) await gate.pass();
    expect(slept).toEqual([250, 250, 250]);
  });
});
