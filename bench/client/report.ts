import type { ChurnReport } from './churn-phase';
import type { DownloadResult } from './download';
import type { LoadResult } from './load';

export interface Report {
  results: Record<string, LoadResult>;
  deepPage: number;
  /** Figures, or why the download failed. */
  download: DownloadResult | string;
  churn: ChurnReport;
  /** The same churn with the readers sending Accept-Encoding. */
  churnGzip: ChurnReport;
  articles: number;
  seconds: number;
  connections: number;
  /** The RATE_LIMIT_* variables the API ran with. */
  rateLimits: Record<string, string>;
}

/** What a cached read must reach of the same bytes sent by a bare server (issue 34). */
const minSameBytesRatio = 0.8;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const percentile = (values: number[], p: number) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
};

/** The figures, with each target beside them. Nothing is asserted: a benchmark informs, it does not fail. */
export function printReport({
  results,
  deepPage,
  download,
  churn,
  churnGzip,
  articles,
  seconds,
  connections,
  rateLimits,
}: Report): void {
  const result = (key: string) => results[key] as LoadResult;
  const baseline = result('baseline');
  const line = (r: LoadResult, ratio: string, target: string) => {
    const problems = r.non2xx + r.errors > 0 ? `  (${r.non2xx} non-2xx, ${r.errors} errors!)` : '';
    return [
      r.name.padEnd(52),
      r.requestsPerSecond.toFixed(0).padStart(8),
      String(r.p50).padStart(6),
      String(r.p99).padStart(6),
      ratio.padStart(14),
      `  ${target}${problems}`,
    ].join(' ');
  };
  const ratioTo = (r: LoadResult, to: LoadResult, name: string) =>
    `${(r.requestsPerSecond / to.requestsPerSecond).toFixed(2)}x ${name}`;
  const row = (key: string, target: string) =>
    line(result(key), ratioTo(result(key), baseline, 'hello'), target);
  const againstCeiling = (key: string, ceiling: string, target: string) =>
    line(result(key), ratioTo(result(key), result(ceiling), 'same'), target);
  /** The ratio goals of issue 34 (>= 0.80x of the same bytes), gathered for the summary at the end. */
  const goals: string[] = [];
  const goal = (name: string, ratio: number, extra?: { p99: number; maxP99: number }) => {
    const met = ratio >= minSameBytesRatio && (!extra || extra.p99 <= extra.maxP99);
    const p99 = extra ? `, p99 ${extra.p99} ms (<= ${extra.maxP99} ms)` : '';
    const verdict = `>= ${minSameBytesRatio.toFixed(2)}x${extra ? `, p99 <= ${extra.maxP99} ms` : ''}: ${met ? 'met' : 'NOT met'}`;
    goals.push(`  ${name.padEnd(66)} ${ratio.toFixed(2)}x same bytes${p99}  ${met ? 'met' : 'NOT met'}`);
    return verdict;
  };
  const ceilingGoal = (key: string, ceiling: string, name: string) =>
    againstCeiling(
      key,
      ceiling,
      goal(name, result(key).requestsPerSecond / result(ceiling).requestsPerSecond),
    );
  const deepRatio = (cache: 'on' | 'off' | 'none') => {
    const first = result(`posts1-${cache}`).p50;
    return first > 0 ? `${(result(`postsDeep-${cache}`).p50 / first).toFixed(2)}x` : 'page 1 p50 < 1 ms';
  };
  const churnLines = (report: ChurnReport) => {
    const visibility = report.writes.visibilityMs;
    const untouched = report.sites.filter((site) => site.role === 'untouched');
    const together = untouched.reduce((sum, site) => sum + site.load.requestsPerSecond, 0);
    return [
      '',
      `Churn${report.acceptEncoding ? `, readers sending Accept-Encoding: ${report.acceptEncoding}` : ', plain requests'}: ` +
        `${report.seconds} s, ${connections} connections (${connections / report.sites.length} per site, own site key) alternating page 1 and ` +
        `100 articles by slug (caches warmed); an editor publishes ${report.publishesPerSecond}/s on ${report.sites[0]?.slug}, the feed import writes ` +
        `${report.importsPerMinute} items/min for ${report.sites[1]?.slug}. API: default configuration + METRICS_TOKEN (for hit ratios).`,
      `${'site'.padEnd(52)} ${'req/s'.padStart(8)} ${'p50ms'.padStart(6)} ${'p99ms'.padStart(6)} ${'ratio'.padStart(14)}   hits   target`,
      ...report.sites.map((site) => {
        const hits = site.hitRatio === null ? '  n/a' : `${(site.hitRatio * 100).toFixed(1)}%`.padStart(6);
        const target = site.role === 'untouched' ? 'p99 <= 20 ms (their ratio: below)' : 'p99 <= 50 ms';
        return line(site.load, ratioTo(site.load, baseline, 'hello'), `${hits}  ${target}`);
      }),
      `${`the ${untouched.length} untouched sites together`.padEnd(52)} ${together.toFixed(0).padStart(8)} ${''.padStart(6)} ` +
        `${String(Math.max(...untouched.map((site) => site.load.p99))).padStart(6)} ` +
        `${`${(together / baseline.requestsPerSecond).toFixed(2)}x hello`.padStart(14)}`,
      mixCeilingLine(report, untouched.length, together, Math.max(...untouched.map((site) => site.load.p99))),
      `Writes: ${report.writes.published} published, ${report.writes.imported} imported; visibility of a change (commit -> first ` +
        `answer with it, ${visibility.length} changes): p50 ${percentile(visibility, 50)} ms, max ${Math.max(...visibility, 0)} ms ` +
        `(target <= 1,000 ms); ${report.writes.unseen} unseen after 5 s` +
        (report.writes.errors.length > 0 ? `; write errors: ${report.writes.errors.join(' | ')}` : ''),
    ];
  };
  /**
   * What a bare server gives the untouched readers at most: the same-bytes ceiling measured with the churn
   * readers' mix (run.ts, no writers), the untouched sites' share of its connections.
   */
  const mixCeilingLine = (report: ChurnReport, untouchedSites: number, together: number, p99: number) => {
    const mix = result(report.acceptEncoding ? 'ceilingMixGzip' : 'ceilingMix');
    const share = (mix.requestsPerSecond * untouchedSites) / report.sites.length;
    const name = `churn, the untouched sites against their share of the mix${report.acceptEncoding ? ', gzip' : ''}`;
    return (
      `${`  same bytes, their share of the churn mix (${untouchedSites} of ${report.sites.length})`.padEnd(52)} ` +
      `${share.toFixed(0).padStart(8)} ${''.padStart(13)} ` +
      `${`${(share / baseline.requestsPerSecond).toFixed(2)}x hello`.padStart(14)}   the untouched readers reach ` +
      `${(together / share).toFixed(2)}x of it (${goal(name, together / share, { p99, maxP99: 20 })})`
    );
  };
  const header = `${'route'.padEnd(52)} ${'req/s'.padStart(8)} ${'p50ms'.padStart(6)} ${'p99ms'.padStart(6)} ${'ratio'.padStart(14)}   target`;
  const lines = [
    '',
    `Client API benchmark: ${articles.toLocaleString('en')} articles, autocannon ${connections} connections x ${seconds} s, site key, loopback`,
    'API: default configuration (LOG_LEVEL info, one line per request, appended to a log file). Baselines: bare Fastify, LOG_LEVEL=warn.',
    header,
    row('baseline', '(bare Fastify hello world)'),
    row('ceilingPage', '(same-bytes ceiling: page 1 body from memory)'),
    row('ceilingArticle', '(same-bytes ceiling: the rotated article bodies)'),
    row('ceilingPartner', '(same-bytes ceiling: partner-articles page 1 from memory)'),
    row('ceilingMix', "(same-bytes ceiling: the churn readers' mix, page 1 and 100 articles)"),
    ceilingGoal('posts1-on', 'ceilingPage', '/client/posts page 1, cached'),
    ceilingGoal('article-on', 'ceilingArticle', '/client/article/:slug, cached'),
    ceilingGoal('partner-on', 'ceilingPartner', '/client/partner-articles page 1, cached'),
    row('ceilingPageGzip', '(same-bytes ceiling: page 1 gzip bytes)'),
    row('ceilingArticleGzip', '(same-bytes ceiling: the rotated articles, gzip bytes)'),
    row('ceilingMixGzip', '(same-bytes ceiling: the churn mix, gzip bytes)'),
    ceilingGoal('posts1-gzip', 'ceilingPageGzip', '/client/posts page 1, cached, gzip'),
    ceilingGoal('article-gzip', 'ceilingArticleGzip', '/client/article/:slug, cached, gzip'),
    againstCeiling('posts1-quiet', 'ceilingPage', '(LOG_LEVEL=warn: no request lines)'),
    againstCeiling('article-quiet', 'ceilingArticle', '(LOG_LEVEL=warn: no request lines)'),
    row('postsDeep-on', `p50 <= 2x page 1's (${deepRatio('on')})`),
    row('posts1-off', '>= 4,000 req/s'),
    row('postsDeep-off', `p50 <= 2x page 1's (${deepRatio('off')})`),
    row('article-off', ''),
    row('partner-off', ''),
    row('posts1-none', '(article JSON cache off too)'),
    row('postsDeep-none', `p50 <= 2x page 1's (${deepRatio('none')})`),
    typeof download === 'string'
      ? `/client/all (network key): failed (${download})`
      : `/client/all (network key): ${download.articles} articles, ${mb(download.bytes)} in ${download.seconds.toFixed(2)} s; ` +
        `API RSS ${mb(download.rssBeforeBytes)} before, peak growth ${mb(download.rssPeakGrowthBytes)} (target <= 64 MB)`,
    '',
    ...[churn, churnGzip].flatMap((report) => churnLines(report)),
    '',
    `Rate limits per key: ${Object.entries(rateLimits)
      .map(([name, value]) => `${name}=${value}`)
      .join(', ')} (RATE_LIMIT_CLIENT: posts, article, partner-articles; off costs no Redis round trip).`,
    `Deep page: ${deepPage}. PG, the API, the baselines and autocannon share this machine's cores: compare ratios, not req/s.`,
    '',
    `Ratios against the same bytes (issue 34: each >= ${minSameBytesRatio.toFixed(2)}x with the default configuration):`,
    ...goals,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
