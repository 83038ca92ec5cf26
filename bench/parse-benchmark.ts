/**
 * Parse benchmark (`pnpm bench:parse`): figures printed, nothing asserted. The CPU the feeds package
 * spends per item, without the queue, the network or the database: the import benchmark's feeds
 * (2,000 items of ~3.3 KB) through parseFeed (decode, feedparser, normalise, sanitise), and the item
 * bodies through sanitizeBody alone. Each figure is the best of several rounds after a warm-up, and is
 * also given as a ratio to a baseline measured in the same run (gzip of the same feeds: fixed native
 * work), since these machines' speed moves by 10-15% from one hour to the next.
 */
import { gzipSync } from 'node:zlib';
import { parseFeed } from '@newsroom/feeds';
import { sanitizeBody } from '@newsroom/html';
import { generateFeed } from './feed-generator';

const FEEDS = Number(process.env.BENCH_FEEDS ?? 40);
const ITEMS_PER_FEED = 50;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);

const feeds = Array.from({ length: FEEDS }, (_, publisher) =>
  Buffer.from(generateFeed(publisher, ITEMS_PER_FEED)),
);
const items = FEEDS * ITEMS_PER_FEED;
const bodies = feeds.flatMap((feed) =>
  [...feed.toString('utf8').matchAll(/<!\[CDATA\[(.*?)\]\]>/gs)].map((match) => match[1] ?? ''),
);

/** The least CPU time (user + system) of one round, in µs per unit, over ROUNDS rounds after a warm-up. */
async function bestMicrosPerUnit(units: number, round: () => unknown): Promise<number> {
  await round();
  let best = Number.POSITIVE_INFINITY;
  for (let r = 0; r < ROUNDS; r++) {
    const start = process.cpuUsage();
    await round();
    const used = process.cpuUsage(start);
    best = Math.min(best, (used.user + used.system) / units);
  }
  return best;
}

const baseline = await bestMicrosPerUnit(items, () => {
  for (const feed of feeds) gzipSync(feed, { level: 1 });
});
const parse = await bestMicrosPerUnit(items, async () => {
  for (const feed of feeds) await parseFeed(feed, { url: 'https://publisher.example/feed' });
});
const sanitize = await bestMicrosPerUnit(bodies.length, () => {
  for (const body of bodies) sanitizeBody(body, 'https://publisher.example/news/1');
});

const line = (name: string, micros: number) =>
  `${name.padEnd(44)} ${micros.toFixed(1).padStart(7)} µs  ${(micros / baseline).toFixed(2).padStart(6)}x baseline`;
process.stdout.write(
  [
    `Parse benchmark: ${FEEDS} feeds x ${ITEMS_PER_FEED} items (${(feeds.reduce((n, feed) => n + feed.length, 0) / 1024 / 1024).toFixed(1)} MiB), best of ${ROUNDS} rounds, CPU time`,
    line('baseline: gzip (level 1) of the feeds, per item', baseline),
    line('parseFeed, per item', parse),
    line('sanitizeBody, per item body', sanitize),
    '',
  ].join('\n'),
);
