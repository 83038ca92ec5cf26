import type { DownloadResult } from './download';
import type { LoadResult } from './load';

export interface Report {
  results: Record<string, LoadResult>;
  deepPage: number;
  download: DownloadResult;
  articles: number;
  seconds: number;
  connections: number;
  /** The RATE_LIMIT_* variables the API ran with. */
  rateLimits: Record<string, string>;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** The figures, with each target beside them. Nothing is asserted: a benchmark informs, it does not fail. */
export function printReport({
  results,
  deepPage,
  download,
  articles,
  seconds,
  connections,
  rateLimits,
}: Report): void {
  const result = (key: string) => results[key] as LoadResult;
  const baseline = result('baseline');
  const row = (key: string, target: string) => {
    const r = result(key);
    const ratio = r.requestsPerSecond / baseline.requestsPerSecond;
    const problems = r.non2xx + r.errors > 0 ? `  (${r.non2xx} non-2xx, ${r.errors} errors!)` : '';
    return [
      r.name.padEnd(44),
      r.requestsPerSecond.toFixed(0).padStart(8),
      String(r.p50).padStart(6),
      String(r.p99).padStart(6),
      `${ratio.toFixed(2).padStart(6)}x`,
      `  ${target}${problems}`,
    ].join(' ');
  };
  const deepRatio = (cache: 'on' | 'off' | 'none') => {
    const first = result(`posts1-${cache}`).p50;
    return first > 0 ? `${(result(`postsDeep-${cache}`).p50 / first).toFixed(2)}x` : 'page 1 p50 < 1 ms';
  };
  const lines = [
    '',
    `Client API benchmark: ${articles.toLocaleString('en')} articles, autocannon ${connections} connections x ${seconds} s, site key, loopback`,
    `${'route'.padEnd(44)} ${'req/s'.padStart(8)} ${'p50ms'.padStart(6)} ${'p99ms'.padStart(6)} ${'ratio'.padStart(7)}   target`,
    row('baseline', '(bare Fastify hello world)'),
    row('posts1-on', '>= 0.35x baseline, p99 <= 15 ms'),
    row('postsDeep-on', `p50 <= 2x page 1's (${deepRatio('on')})`),
    row('article-on', '>= 0.35x baseline, p99 <= 15 ms'),
    row('partner-on', ''),
    row('posts1-off', '>= 4,000 req/s'),
    row('postsDeep-off', `p50 <= 2x page 1's (${deepRatio('off')})`),
    row('article-off', ''),
    row('partner-off', ''),
    row('posts1-none', '(article JSON cache off too)'),
    row('postsDeep-none', `p50 <= 2x page 1's (${deepRatio('none')})`),
    `/client/all (network key): ${download.articles} articles, ${mb(download.bytes)} in ${download.seconds.toFixed(2)} s; ` +
      `API RSS ${mb(download.rssBeforeBytes)} before, peak growth ${mb(download.rssPeakGrowthBytes)} (target <= 64 MB)`,
    `Rate limits per key: ${Object.entries(rateLimits)
      .map(([name, value]) => `${name}=${value}`)
      .join(', ')} (RATE_LIMIT_CLIENT: posts, article, partner-articles; off costs no Redis round trip).`,
    `Deep page: ${deepPage}. PG, the API, the baseline and autocannon share this machine's cores: figures are indicative.`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
