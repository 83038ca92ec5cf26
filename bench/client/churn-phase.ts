import type { Db } from '@newsroom/domain';
import { type ChurnResult, startChurn } from './churn';
import { type LoadResult, measure } from './load';
import type { Seeded } from './seed';

/** One site's reads during the churn, and its response-cache hit ratio (from the API's metrics). */
export interface SiteUnderChurn {
  slug: string;
  role: 'editor publishing' | 'feed import' | 'untouched';
  load: LoadResult;
  hitRatio: number | null;
}

export interface ChurnReport {
  seconds: number;
  /** The readers' Accept-Encoding (null: none, identity responses). */
  acceptEncoding: string | null;
  sites: SiteUnderChurn[];
  writes: ChurnResult;
  publishesPerSecond: number;
  importsPerMinute: number;
}

/** Sums of `newsroom_client_cache_lookups_total{cache="responses"}` by site and result, from one scrape. */
async function responseLookups(apiUrl: string, token: string): Promise<Map<string, number>> {
  const text = await (
    await fetch(`${apiUrl}/metrics`, { headers: { authorization: `Bearer ${token}` } })
  ).text();
  const sums = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line.startsWith('newsroom_client_cache_lookups_total{') || !line.includes('cache="responses"'))
      continue;
    const site = /site="([^"]+)"/.exec(line)?.[1];
    const result = /result="([^"]+)"/.exec(line)?.[1];
    if (!site || !result) continue;
    sums.set(`${site}|${result}`, Number(line.slice(line.lastIndexOf(' ') + 1)));
  }
  return sums;
}

/** How many articles each churn reader rotates through besides page 1. */
const hotArticles = 100;

/**
 * What one site's churn readers request, in turn: page 1 and an article, alternately, over the site's hot set
 * (page 1 and its `hotArticles` most recent sampled articles). The same-bytes ceiling reads the same mix.
 */
export function churnReaderPaths(pagePath: string, articlePaths: readonly string[]): string[] {
  return articlePaths.slice(0, hotArticles).flatMap((articlePath) => [pagePath, articlePath]);
}

/** Connections of each site's load generator: the run's connections shared equally by the sites. */
export const churnConnectionsPerSite = (connections: number, sites: number) =>
  Math.floor(connections / sites);

/**
 * 50 connections (10 per site) read page 1 and articles by slug (100 per site), alternately, on each of the 5
 * sites with the site's own key, while an editor publishes on site 1 and the feed import writes for site 2.
 */
export async function runChurn(options: {
  db: Db;
  apiUrl: string;
  metricsToken: string;
  seeded: Seeded;
  seconds: number;
  connections: number;
  /** Sent by every reader (null: none). The writers and probes are the same either way. */
  acceptEncoding: string | null;
  log: (line: string) => void;
}): Promise<ChurnReport> {
  const { apiUrl, seeded, log, acceptEncoding } = options;
  const headersOf = (key: string): Record<string, string> =>
    acceptEncoding ? { 'x-api-key': key, 'accept-encoding': acceptEncoding } : { 'x-api-key': key };
  const publishesPerSecond = 2;
  const importsPerMinute = 500;
  const roles: SiteUnderChurn['role'][] = [
    'editor publishing',
    'feed import',
    'untouched',
    'untouched',
    'untouched',
  ];
  const perSite = churnConnectionsPerSite(options.connections, seeded.sites.length);
  const pathsOf = (slugs: string[]) =>
    churnReaderPaths(
      '/api/v1/client/posts',
      slugs.map((slug) => `/api/v1/client/article/${slug}`),
    );

  // Warm-up: every path once (so the figures show invalidation, not a cold cache), then 3 s of load.
  log('  warm-up (every path once, then 3 s; not measured)');
  for (const site of seeded.sites) {
    const paths = [...new Set(pathsOf(site.slugs))];
    for (let start = 0; start < paths.length; start += 10) {
      await Promise.all(
        paths.slice(start, start + 10).map(async (path) => {
          const response = await fetch(`${apiUrl}${path}`, { headers: headersOf(site.key) });
          await response.arrayBuffer();
        }),
      );
    }
  }
  await Promise.all(
    seeded.sites.map((site) =>
      measure({
        name: 'warm-up',
        url: apiUrl,
        paths: pathsOf(site.slugs),
        headers: headersOf(site.key),
        seconds: 3,
        connections: perSite,
      }),
    ),
  );
  const before = await responseLookups(apiUrl, options.metricsToken);
  const [editorSite, importSite] = seeded.sites as [Seeded['sites'][number], Seeded['sites'][number]];
  const writers = await startChurn({
    db: options.db,
    apiUrl,
    editorSite: { slug: editorSite.slug, key: editorSite.key },
    importSite: { id: importSite.id, key: importSite.key },
    publishesPerSecond,
    importsPerMinute,
    importBatch: 25,
  });
  const loads = await Promise.all(
    seeded.sites.map((site, index) =>
      measure({
        name: `${site.slug} (${roles[index]})`,
        url: apiUrl,
        paths: pathsOf(site.slugs),
        headers: headersOf(site.key),
        seconds: options.seconds,
        connections: perSite,
      }),
    ),
  );
  const writes = await writers.stop();
  const after = await responseLookups(apiUrl, options.metricsToken);
  const delta = (site: string, result: string) =>
    (after.get(`${site}|${result}`) ?? 0) - (before.get(`${site}|${result}`) ?? 0);
  const sites = seeded.sites.map((site, index) => {
    const hits = delta(site.id, 'hit');
    const lookups = hits + delta(site.id, 'miss') + delta(site.id, 'bypass');
    const load = loads[index] as LoadResult;
    log(
      `  ${load.name}: ${load.requestsPerSecond.toFixed(0)} req/s, p99 ${load.p99} ms, hits ${hits}/${lookups}`,
    );
    return {
      slug: site.slug,
      role: roles[index] as SiteUnderChurn['role'],
      load,
      hitRatio: lookups > 0 ? hits / lookups : null,
    };
  });
  return { seconds: options.seconds, acceptEncoding, sites, writes, publishesPerSecond, importsPerMinute };
}
