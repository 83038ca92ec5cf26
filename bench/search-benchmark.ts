/**
 * Client search benchmark (`pnpm bench:search`): figures printed, nothing asserted. Loopback only.
 *
 * Creates its own database on the local server (BENCH_POSTGRES_URL), migrates it and seeds 50,000 published
 * articles (BENCH_ARTICLES) across 5 sites, with ~3 KB bodies of words drawn from a 20,000-word vocabulary with
 * a Zipf distribution (as in real text: a few words are in most articles, most words in few), through the
 * normal insert path (the search-vector trigger runs). Then measures what an uncached search costs the API:
 * the search's outline (its total, counted up to searchCountCap, and its ranked ids) plus page 1's ids and
 * versions, what a search page reads when no cache holds it, for single words of several frequencies, several
 * words, a phrase and an `or`, over the network and over one site. Prints the exact number of matches (counted
 * apart, untimed), the total the API reports (`500+`: a lower bound) and p50 / p95 per query and over all of
 * them. Drops the database at the end, unless BENCH_KEEP_DATABASE=1; BENCH_SEARCH_DATABASE_URL reuses a database
 * seeded by an earlier run (kept that way) instead of seeding a new one.
 */
import { performance } from 'node:perf_hooks';
import {
  countSearchMatches,
  createDb,
  type Database,
  findListingOutline,
  type Listing,
  listPublishedVersions,
} from '@newsroom/domain';
import { type Kysely, sql } from 'kysely';
import { createBenchDatabase } from './client/seed';
import { log } from './log';
import { percentile } from './percentile';

const serverUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const articleCount = Number(process.env.BENCH_ARTICLES ?? 50_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 40);
const deadline = setTimeout(() => {
  process.stderr.write('bench:search: 15-minute deadline passed\n');
  process.exit(1);
}, 15 * 60_000);
deadline.unref();

/** A small deterministic PRNG, so every run seeds the same content. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const next = random(7);
const syllables = 'ka lo mi re su ta ne vo pi da ho lu sa ri me no tu ba ze fi'.split(' ');
/** 20,000 distinct pronounceable words (3-4 syllables), in frequency rank order. */
const vocabulary = (() => {
  const words = new Set<string>();
  while (words.size < 20_000) {
    const length = 3 + Math.floor(next() * 2);
    words.add(Array.from({ length }, () => syllables[Math.floor(next() * syllables.length)]).join(''));
  }
  return [...words];
})();
/** Zipf (s = 1) over the vocabulary: cumulative weights for sampling by binary search. */
const cumulative = (() => {
  let sum = 0;
  return vocabulary.map((_, rank) => {
    sum += 1 / (rank + 1);
    return sum;
  });
})();
function word(): string {
  const target = next() * (cumulative.at(-1) as number);
  let low = 0;
  let high = cumulative.length - 1;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((cumulative[mid] as number) < target) low = mid + 1;
    else high = mid;
  }
  return vocabulary[low] as string;
}
const sentence = (words: number) => Array.from({ length: words }, word).join(' ');
function bodyOf(bytes: number): string {
  const paragraphs: string[] = [];
  let length = 0;
  while (length < bytes) {
    const text = `${sentence(40 + Math.floor(next() * 40))}.`;
    paragraphs.push(`<p>${text}</p>`);
    length += text.length + 7;
  }
  return paragraphs.join('');
}

/** Five sites and `articleCount` published articles spread over them; returns the sites, north first. */
async function seed(db: Kysely<Database>) {
  const sites = await db
    .insertInto('sites')
    .values(['north', 'south', 'east', 'west', 'central'].map((slug) => ({ slug, name: slug })))
    .returning('id')
    .execute();
  log(
    `Seeding ${articleCount.toLocaleString('en')} articles (~3 KB bodies, Zipf vocabulary of 20,000 words) ...`,
  );
  const seedStart = performance.now();
  const now = Date.now();
  for (let start = 0; start < articleCount; start += 1_000) {
    const rows = Array.from({ length: Math.min(1_000, articleCount - start) }, (_, k) => {
      const i = start + k;
      return {
        title: sentence(5 + Math.floor(next() * 6)),
        slug: `article-${i}`,
        body: bodyOf(3_000),
        tags: [],
        status: 'published' as const,
        published_at: new Date(now - i * 60_000),
      };
    });
    await db.transaction().execute(async (tx) => {
      const inserted = await tx.insertInto('articles').values(rows).returning('id').execute();
      await tx
        .insertInto('article_sites')
        .values(
          inserted.map((row, k) => ({ article_id: row.id, site_id: sites[(start + k) % 5]?.id as string })),
        )
        .execute();
    });
  }
  log(`  seeded in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);
  await sql`vacuum analyze`.execute(db);
  // The seed wrote ~450 MB: flush it now, or the checkpointer writes it out during the measurement.
  await sql`checkpoint`.execute(db);
  return sites;
}

const existingUrl = process.env.BENCH_SEARCH_DATABASE_URL;
const keep = existingUrl !== undefined || process.env.BENCH_KEEP_DATABASE === '1';
const bench = existingUrl
  ? { url: existingUrl, db: createDb({ connectionString: existingUrl, max: 4 }), drop: async () => {} }
  : await createBenchDatabase(serverUrl);
const { db } = bench;
try {
  const sites = existingUrl
    ? await db.selectFrom('sites').select('id').orderBy(sql`slug = 'north'`, 'desc').execute()
    : await seed(db);
  log(`Database: ${bench.url}`);

  const siteId = sites[0]?.id as string;
  const listing = (q: string, scope: string | null): Listing => ({
    siteId: scope,
    aggregatedOnly: false,
    tag: null,
    category: null,
    section: null,
    q,
  });
  const queries: Array<[string, string]> = [
    ['very common word (rank 3)', vocabulary[2] as string],
    ['common word (rank 30)', vocabulary[29] as string],
    ['mid word (rank 300)', vocabulary[299] as string],
    ['rare word (rank 3,000)', vocabulary[2_999] as string],
    ['two words (ranks 30, 300)', `${vocabulary[29]} ${vocabulary[299]}`],
    ['phrase (ranks 1, 2)', `"${vocabulary[0]} ${vocabulary[1]}"`],
    ['or (ranks 300, 3,000)', `${vocabulary[299]} or ${vocabulary[2_999]}`],
  ];
  const all: number[] = [];
  const percentileOf = (samples: number[], p: number) =>
    percentile(
      [...samples].sort((a, b) => a - b),
      p,
    );
  log(`\nUncached search (outline + page 1 ids and versions), ${rounds} runs each after 3 warm-ups:`);
  log('| query | scope | matches (total reported) | p50 ms | p95 ms |');
  log('|---|---|---|---|---|');
  for (const [name, q] of queries) {
    for (const [scopeName, scope] of [
      ['network', null],
      ['one site', siteId],
    ] as const) {
      const search = listing(q, scope);
      const once = async () => {
        const outline = await findListingOutline(db, search);
        await listPublishedVersions(db, search, { page: 1, limit: 20 }, outline);
        return `${outline.total.toLocaleString('en')}${outline.totalIsLowerBound ? '+' : ''}`;
      };
      let reported = '';
      for (let i = 0; i < 3; i++) reported = await once();
      const matches = await countSearchMatches(db, search, Number.MAX_SAFE_INTEGER);
      const samples: number[] = [];
      for (let i = 0; i < rounds; i++) {
        const start = performance.now();
        await once();
        samples.push(performance.now() - start);
      }
      all.push(...samples);
      log(
        `| ${name} | ${scopeName} | ${matches.toLocaleString('en')} (${reported}) | ${percentileOf(samples, 50).toFixed(1)} | ${percentileOf(samples, 95).toFixed(1)} |`,
      );
    }
  }
  log(
    `\nAll queries: p50 ${percentileOf(all, 50).toFixed(1)} ms, p95 ${percentileOf(all, 95).toFixed(1)} ms`,
  );
} finally {
  if (keep) await db.destroy();
  else await bench.drop();
  clearTimeout(deadline);
}
