import { createDb, createSiteKey, type Db } from '@newsroom/domain';
import { excerptFromHtml } from '@newsroom/html';
import { migrateToLatest } from '@newsroom/migrations';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';

export const siteSlugs = ['north', 'south', 'east', 'west', 'central'];
const words = (
  'the council market report city league season minister budget school river storm court museum ' +
  'election festival housing transport energy harbour police hospital team coach player vote plan ' +
  'winter summer bridge station library park farmers trade weather research island culture music'
).split(' ');
const tags = [
  'politics',
  'sport',
  'business',
  'culture',
  'science',
  'local',
  'world',
  'health',
  'tech',
  'travel',
];
const categories = ['news', 'opinion', 'analysis', 'feature', 'interview', 'review'];
const sections = ['front', 'region', 'nation', 'international', 'lifestyle'];

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

function bodyOf(next: () => number, bytes: number): string {
  const parts: string[] = [];
  let length = 0;
  while (length < bytes) {
    const sentence = Array.from(
      { length: 8 + Math.floor(next() * 10) },
      () => words[Math.floor(next() * words.length)],
    );
    const text = `${sentence.join(' ')}.`;
    parts.push(text.charAt(0).toUpperCase() + text.slice(1));
    length += text.length + 1;
  }
  return parts.join(' ');
}

export interface BenchDatabase {
  url: string;
  db: Db;
  drop(): Promise<void>;
}

/** A fresh, migrated database on the local server (dropped by `drop`). */
export async function createBenchDatabase(serverUrl: string): Promise<BenchDatabase> {
  const name = `newsroom_bench_${Date.now().toString(36)}`;
  const admin = new Kysely<unknown>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: serverUrl, max: 1 }) }),
  });
  await sql`create database ${sql.id(name)}`.execute(admin);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = createDb({ connectionString: url.toString(), max: 4, applicationName: 'newsroom-bench' });
  await migrateToLatest(db);
  return {
    url: url.toString(),
    db,
    async drop() {
      await db.destroy();
      await sql`drop database if exists ${sql.id(name)} with (force)`.execute(admin);
      await admin.destroy();
    },
  };
}

export interface Seeded {
  siteIds: string[];
  siteKey: string;
  /** Slugs of articles on the first site (the one the site key reads). */
  siteSlugsSample: string[];
  /** Per site (in `siteIds` order): a site key and up to 2,000 slugs of its articles. */
  sites: Array<{ id: string; slug: string; key: string; slugs: string[] }>;
}

/**
 * `count` published articles across the five sites (each on one site, every fourth also on the next),
 * every third imported from a feed, bodies of about `bodyBytes`, one per minute back from now.
 */
export async function seedArticles(db: Db, count: number, bodyBytes: number): Promise<Seeded> {
  const sites = await db
    .insertInto('sites')
    .values(siteSlugs.map((slug) => ({ slug, name: slug })))
    .returning(['id', 'slug'])
    .execute();
  const siteIds = siteSlugs.map((slug) => sites.find((site) => site.slug === slug)?.id as string);
  const next = random(42);
  const now = Date.now();
  const slugsBySite: string[][] = siteIds.map(() => []);
  const batch = 1_000;
  for (let start = 0; start < count; start += batch) {
    const rows = Array.from({ length: Math.min(batch, count - start) }, (_, k) => {
      const i = start + k;
      const aggregated = i % 3 === 0;
      const tagA = tags[Math.floor(next() * tags.length)] as string;
      const tagB = tags[Math.floor(next() * tags.length)] as string;
      const body = bodyOf(next, bodyBytes);
      return {
        title: `Article ${i}: ${words[i % words.length]} ${words[(i * 7) % words.length]}`,
        slug: `article-${i}`,
        body,
        // What the application stores (a body without paragraphs: its text, cut to 300 characters).
        excerpt: excerptFromHtml(body),
        tags: [...new Set([tagA, tagB])],
        category: categories[i % categories.length] as string,
        section: sections[i % sections.length] as string,
        thumbnail: `https://cdn.example/thumbs/${i}.jpg`,
        image: `https://cdn.example/images/${i}.jpg`,
        status: 'published' as const,
        is_aggregated: aggregated,
        source: aggregated ? 'Wire Service' : null,
        source_url: aggregated ? `https://wire.example/story/${i}` : null,
        rss_feed_guid: aggregated ? `wire-${i}` : null,
        published_at: new Date(now - i * 60_000),
      };
    });
    await db.transaction().execute(async (tx) => {
      const inserted = await tx.insertInto('articles').values(rows).returning(['id', 'slug']).execute();
      const links = inserted.flatMap((row, k) => {
        const i = start + k;
        const primary = i % siteIds.length;
        const sitesOf = i % 4 === 0 ? [primary, (primary + 1) % siteIds.length] : [primary];
        for (const s of sitesOf) {
          const sample = slugsBySite[s] as string[];
          if (sample.length < 2_000) sample.push(row.slug);
        }
        return sitesOf.map((s) => ({ article_id: row.id, site_id: siteIds[s] as string }));
      });
      await tx.insertInto('article_sites').values(links).execute();
    });
  }
  // Fresh statistics and a visibility map, as autovacuum would leave a live database.
  await sql`vacuum analyze`.execute(db);
  const keys: string[] = [];
  for (const siteId of siteIds) keys.push((await createSiteKey(db, siteId, 'bench')).secret);
  return {
    siteIds,
    siteKey: keys[0] as string,
    siteSlugsSample: slugsBySite[0] as string[],
    sites: siteIds.map((id, index) => ({
      id,
      slug: siteSlugs[index] as string,
      key: keys[index] as string,
      slugs: slugsBySite[index] as string[],
    })),
  };
}
