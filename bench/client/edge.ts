import { randomBytes } from 'node:crypto';
import { changeArticleStatus, createArticle, createSiteKey, type Db } from '@newsroom/domain';
import { freePort, startPrivateVarnish } from '@newsroom/test-support';
import { listenForContentChanges } from '../../apps/worker/src/content-changes';
import { createPurgeWorker } from '../../apps/worker/src/purge/purge-worker';
import { type LoadResult, measure, undiciAcceptEncoding } from './load';
import { type Server, startServer } from './processes';
import type { Seeded } from './seed';

// pnpm bench:client edge — the edge of docs/cdn.md on this machine: Debian's Varnish (xkey) in front of two API
// processes, the worker's purge relay (woken by content_changed, as main.ts wires it) sending xkey purges. Readers
// of every site read through Varnish with the site's publishable key (page 1 and articles, alternately) while an
// editor publishes on the first site twice a second. Prints per site the edge's req/s and p99 and its hit ratio (1 - requests that reached an API / edge
// requests), how long each publish took to show at the edge, and the stale answers left after the purge lag.

export interface EdgeReport {
  sites: Array<{ slug: string; role: string; load: LoadResult; hitRatio: number }>;
  publishes: number;
  visibleMs: { p50: number; p99: number; max: number };
  notVisible: number;
  staleAfterPurge: number;
}

/** Requests that reached the API's response cache, by site id, summed over the API processes' metrics. */
async function originLookups(urls: readonly string[], token: string): Promise<Map<string, number>> {
  const sums = new Map<string, number>();
  for (const url of urls) {
    const text = await (
      await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}` } })
    ).text();
    for (const line of text.split('\n')) {
      if (!line.startsWith('newsroom_client_cache_lookups_total{') || !line.includes('cache="responses"'))
        continue;
      const site = /site="([^"]+)"/.exec(line)?.[1];
      if (!site) continue;
      sums.set(site, (sums.get(site) ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1)));
    }
  }
  return sums;
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted.length === 0
    ? Number.NaN
    : (sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] as number);

export async function runEdge(options: {
  db: Db;
  /** Where the worker's change listener connects (a session: LISTEN). */
  databaseUrl: string;
  /** Wake the purge relay on content_changed, as main.ts does (false: its 200 ms interval alone). */
  relayWoken: boolean;
  seeded: Seeded;
  apiEntry: string;
  apiEnv: (port: string) => Record<string, string>;
  seconds: number;
  connections: number;
  running: Server[];
  log: (line: string) => void;
}): Promise<EdgeReport> {
  const { db, seeded, log } = options;
  const metricsToken = randomBytes(24).toString('base64url');
  const apis: Server[] = [];
  for (let n = 0; n < 2; n++) {
    const port = String(await freePort());
    const server = await startServer(options.apiEntry, {
      ...options.apiEnv(port),
      METRICS_TOKEN: metricsToken,
    });
    options.running.push(server);
    apis.push(server);
  }
  const ports = apis.map((api) => Number(new URL(api.url).port));
  const varnish = await startPrivateVarnish(ports);
  const purges = createPurgeWorker({
    config: {
      purge: {
        varnishUrls: [varnish.url],
        fastly: null,
        cloudflare: null,
        relayIntervalMs: 200,
        timeoutMs: 5_000,
      },
    },
    db,
  });
  // Woken by each committed change as main.ts wires it (the 200 ms interval its fallback), unless measuring the poll.
  const changes = options.relayWoken
    ? await listenForContentChanges({
        connectionString: options.databaseUrl,
        onChange: () => purges?.wake(),
      })
    : undefined;
  log(
    `Edge: the purge relay ${changes ? 'woken by content_changed (200 ms interval as a fallback)' : 'every 200 ms, not woken'}`,
  );
  try {
    const sites = [];
    for (const site of seeded.sites) {
      sites.push({ ...site, key: (await createSiteKey(db, site.id, 'edge', 'publishable')).secret });
    }
    const headersOf = (key: string) => ({ 'x-api-key': key, 'accept-encoding': undiciAcceptEncoding });
    const pathsOf = (slugs: string[]) =>
      slugs.slice(0, 100).flatMap((slug) => ['/api/v1/client/posts', `/api/v1/client/article/${slug}`]);
    log(`Edge: Varnish ${varnish.url} in front of ${apis.map((api) => api.url).join(' and ')}; warm-up`);
    for (const site of sites) {
      for (const path of new Set(pathsOf(site.slugs))) {
        await (await fetch(`${varnish.url}${path}`, { headers: headersOf(site.key) })).arrayBuffer();
      }
    }
    const before = await originLookups(
      apis.map((api) => api.url),
      metricsToken,
    );
    const [editor] = sites as [(typeof sites)[number]];
    const visible: number[] = [];
    let notVisible = 0;
    let publishes = 0;
    let writing = true;
    const writer = (async () => {
      while (writing) {
        const started = Date.now();
        const article = await createArticle(
          db,
          {
            title: `Breaking ${publishes} ${randomBytes(3).toString('hex')}`,
            body: '<p>Breaking news.</p>',
            tags: ['breaking'],
            category: null,
            section: null,
            thumbnail: null,
            image: null,
          },
          [editor.slug],
        );
        await changeArticleStatus(db, article.id, 'publish');
        publishes++;
        const published = Date.now();
        let seen = false;
        while (Date.now() - published < 10_000) {
          const response = await fetch(`${varnish.url}/api/v1/client/posts`, {
            headers: headersOf(editor.key),
          });
          if ((await response.text()).includes(`"${article.slug}"`)) {
            seen = true;
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        if (seen) visible.push(Date.now() - published);
        else notVisible++;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, 500 - (Date.now() - started))));
      }
    })();
    const perSite = Math.max(1, Math.floor(options.connections / sites.length));
    const loads = await Promise.all(
      sites.map((site, index) =>
        measure({
          name: `${site.slug} (${index === 0 ? 'editor publishing' : 'untouched'})`,
          url: varnish.url,
          paths: pathsOf(site.slugs),
          headers: headersOf(site.key),
          seconds: options.seconds,
          connections: perSite,
        }),
      ),
    );
    writing = false;
    await writer;
    const after = await originLookups(
      apis.map((api) => api.url),
      metricsToken,
    );
    const report: EdgeReport['sites'] = sites.map((site, index) => {
      const load = loads[index] as LoadResult;
      const origin = (after.get(site.id) ?? 0) - (before.get(site.id) ?? 0);
      const hitRatio = load.requests > 0 ? 1 - origin / load.requests : Number.NaN;
      log(
        `  ${load.name}: ${load.requestsPerSecond.toFixed(0)} req/s at the edge, p99 ${load.p99} ms, ` +
          `${origin} of ${load.requests} reached an API: hit ratio ${(hitRatio * 100).toFixed(2)}%`,
      );
      return { slug: site.slug, role: index === 0 ? 'editor publishing' : 'untouched', load, hitRatio };
    });
    // Once the purge backlog is empty, the edge must answer what the API answers, for every site.
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; ) {
      if ((await db.selectFrom('cdn_purges').select('key').execute()).length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    let staleAfterPurge = 0;
    for (const site of sites) {
      for (const path of new Set(pathsOf(site.slugs.slice(0, 10)))) {
        const [edge, origin] = await Promise.all(
          [varnish.url, apis[0]?.url].map((base) =>
            fetch(`${base}${path}`, { headers: headersOf(site.key) }),
          ),
        );
        if (edge?.headers.get('etag') !== origin?.headers.get('etag')) staleAfterPurge++;
        await Promise.all([edge?.arrayBuffer(), origin?.arrayBuffer()]);
      }
    }
    const sorted = [...visible].sort((a, b) => a - b);
    const visibleMs = {
      p50: percentile(sorted, 0.5),
      p99: percentile(sorted, 0.99),
      max: sorted.at(-1) ?? Number.NaN,
    };
    log(
      `  publishes: ${publishes}, visible at the edge after p50 ${visibleMs.p50} ms, p99 ${visibleMs.p99} ms, ` +
        `max ${visibleMs.max} ms (not within 10 s: ${notVisible}); stale answers after the purge lag: ${staleAfterPurge}`,
    );
    return { sites: report, publishes, visibleMs, notVisible, staleAfterPurge };
  } finally {
    await changes?.close();
    await purges?.close();
    await varnish.stop();
    for (const api of apis) {
      await api.stop();
      options.running.splice(options.running.indexOf(api), 1);
    }
  }
}
