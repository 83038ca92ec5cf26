import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { startPrivateVarnish } from '@newsroom/test-support';
import { sql } from 'kysely';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createNewsroomClient } from '../../../../packages/sdk/src';
import { createPurgeWorker } from '../../../worker/src/purge/purge-worker';
import { insertArticle, insertSite, issueSiteKey } from '../support/content-fixtures';
import { createTestApp } from '../support/test-app';

// Issue 33, proven with the real software: Debian's Varnish (xkey vmod) in front of two API replicas, the
// worker's purge relay sending xkey purges from the outbox. Churn readers read every site through the edge
// while one site publishes: the untouched sites stay cached (hit ratio >= 0.99), and each publish shows at
// the edge once purged (no stale answer after the purge lag). Bounds only, no timings (those: bench:client edge).

vi.setConfig({ testTimeout: 60_000 });

const primary = await createTestApp();
const replica = await createTestApp({ replicaOf: primary });
const portOf = async (target: typeof primary) => {
  await target.app.listen({ port: 0, host: '127.0.0.1' });
  return (target.app.server.address() as AddressInfo).port;
};
const backends = [await portOf(primary), await portOf(replica)];
let varnish = await startPrivateVarnish(backends);
const origin = `http://127.0.0.1:${backends[0]}`;
const { db } = primary;
const purges = createPurgeWorker({
  config: {
    purge: {
      varnishUrls: [varnish.url],
      fastly: null,
      cloudflare: null,
      relayIntervalMs: 50,
      timeoutMs: 2_000,
    },
  },
  db,
});
afterAll(async () => {
  await purges?.close();
  await varnish.stop();
  await replica.close();
  await primary.close();
});

interface EdgeSite {
  id: string;
  slug: string;
  key: string;
  articles: string[];
}
const siteCount = 10;
const sites: EdgeSite[] = [];
for (let n = 0; n < siteCount; n++) {
  const slug = `edge-${n}`;
  const id = await insertSite(db, slug);
  const articles: string[] = [];
  for (let a = 0; a < 3; a++) {
    articles.push(
      (await insertArticle(db, { slug: `${slug}-story-${a}`, siteIds: [id], tags: ['news'] })).slug,
    );
  }
  sites.push({ id, slug, key: (await issueSiteKey(db, id, 'edge', 'publishable')).key, articles });
}
const [hot, ...untouched] = sites as [EdgeSite, ...EdgeSite[]];
const pathsOf = (site: EdgeSite) => [
  '/api/v1/client/posts',
  '/api/v1/client/tags',
  ...site.articles.map((slug) => `/api/v1/client/article/${slug}`),
];

async function edgeGet(path: string, key: string) {
  const response = await fetch(`${varnish.url}${path}`, {
    headers: { 'x-api-key': key },
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, cache: response.headers.get('x-cache'), body: await response.text() };
}

/** Reads every path of the sites once through the edge; counts hits and reads. */
async function readAll(list: readonly EdgeSite[]) {
  let hits = 0;
  let reads = 0;
  for (const site of list) {
    for (const path of pathsOf(site)) {
      const answer = await edgeGet(path, site.key);
      expect(answer.status, path).toBe(200);
      reads++;
      if (answer.cache === 'HIT') hits++;
    }
  }
  return { hits, reads };
}

/**
 * Waits (bounded) until the purge relay has passed every change made so far and sent every purge: the outbox
 * horizon may trail on a busy server, and a late purge of earlier writes would count as a miss.
 */
async function purgesSettled() {
  for (const deadline = Date.now() + 20_000; Date.now() < deadline; await sleep(25)) {
    const { rows } = await sql<{ passed: boolean; pending: number }>`
      select (select xid from cdn_purge_position) > coalesce((select max(xid) from article_changes), '0'::xid8) as passed,
             (select count(*)::int from cdn_purges) as pending`.execute(db);
    if (rows[0]?.passed && rows[0].pending === 0) return;
  }
  throw new Error('the purge relay did not catch up within 20 s');
}

/** Polls the edge until `check` holds (bounded). */
async function untilEdge(path: string, key: string, check: (body: string) => boolean, what: string) {
  for (const deadline = Date.now() + 15_000; Date.now() < deadline; await sleep(25)) {
    const answer = await edgeGet(path, key);
    if (answer.status === 200 && check(answer.body)) return;
  }
  throw new Error(`${what}: not at the edge within 15 s`);
}

describe('Varnish in front of two API replicas', () => {
  it('keeps untouched sites cached while a site publishes, and shows every publish once purged', async () => {
    await purgesSettled();
    await readAll(sites);
    const warm = await readAll(sites);
    expect(warm.hits).toBe(warm.reads);

    let hits = 0;
    let reads = 0;
    for (let round = 0; round < 5; round++) {
      const slug = `edge-breaking-${round}`;
      await insertArticle(db, { slug, siteIds: [hot.id], tags: ['breaking'] });
      // Readers of every other site keep reading meanwhile.
      const during = await readAll(untouched);
      hits += during.hits;
      reads += during.reads;
      await untilEdge('/api/v1/client/posts', hot.key, (body) => body.includes(`"${slug}"`), slug);
      // Once the purge lag is over, nothing of the hot site the edge answers is stale.
      await purgesSettled();
      expect((await edgeGet('/api/v1/client/posts', hot.key)).body).toContain(`"${slug}"`);
      expect((await edgeGet('/api/v1/client/tags', hot.key)).body).toContain('"breaking"');
      expect((await edgeGet(`/api/v1/client/article/${slug}`, hot.key)).status).toBe(200);
      const after = await readAll(untouched);
      hits += after.hits;
      reads += after.reads;
    }
    expect(reads).toBe(2 * 5 * untouched.length * 5);
    expect(hits / reads).toBeGreaterThanOrEqual(0.99);
  });

  it('never keeps an answer to a secret key', async () => {
    const secret = (await issueSiteKey(db, untouched[0]?.id as string, 'server')).key;
    const first = await edgeGet('/api/v1/client/posts', secret);
    const second = await edgeGet('/api/v1/client/posts', secret);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect([first.cache, second.cache]).toEqual(['MISS', 'MISS']);
  });

  it('keeps one answer per key: another site on the same URL gets its own', async () => {
    const [a, b] = untouched as [EdgeSite, EdgeSite];
    const bodyA = (await edgeGet('/api/v1/client/posts', a.key)).body;
    const bodyB = (await edgeGet('/api/v1/client/posts', b.key)).body;
    expect(bodyA).toContain(a.articles[0]);
    expect(bodyB).toContain(b.articles[0]);
    expect(bodyB).not.toContain(a.articles[0]);
  });

  it('while Varnish is down, readers configured with the API as origin still get answers; when it returns, nothing stale', async () => {
    const reader = createNewsroomClient({
      baseUrl: varnish.url,
      originUrl: origin,
      apiKey: hot.key,
      etagCache: false,
    });
    const slugsOf = async () =>
      (await reader.page('/api/v1/client/posts', { limit: 100 })).data.map((a) => a.slug);
    await purgesSettled();
    await edgeGet('/api/v1/client/posts', hot.key);
    expect((await edgeGet('/api/v1/client/posts', hot.key)).cache).toBe('HIT');

    await varnish.stop();
    await expect(edgeGet('/api/v1/client/posts', hot.key)).rejects.toThrow();
    // Written while the edge is down: its purge cannot be sent, and readers go to the API.
    await insertArticle(db, { slug: 'edge-while-down', siteIds: [hot.id], tags: ['news'] });
    expect(await slugsOf()).toContain('edge-while-down');
    expect((await reader.article('edge-while-down')).slug).toBe('edge-while-down');

    varnish = await startPrivateVarnish(backends, varnish.port);
    const first = await edgeGet('/api/v1/client/posts', hot.key);
    expect(first.status).toBe(200);
    expect(first.body).toContain('"edge-while-down"');
    // The purges held back while it was down reach it, and the relay carries on.
    await purgesSettled();
    expect(await slugsOf()).toContain('edge-while-down');
    expect((await edgeGet('/api/v1/client/posts', hot.key)).body).toContain('"edge-while-down"');
  });
});
