import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeListingCursor } from '../../src/delivery/listing-cursor';
import { insertArticle, insertSite, issueSiteKey, minutesAgo } from '../support/content-fixtures';
import { createTestApp, testApiKey } from '../support/test-app';

// A keyset cursor on the JSON lists (`after=`, meta.pagination.nextCursor): a walk by cursor sees every article
// that existed when it began exactly once, however many are published meanwhile (a walk by page number shifts).
const { app, db, close } = await createTestApp();
afterAll(close);

const site = await insertSite(db, 'walk');
const siteKey = (await issueSiteKey(db, site)).key;
const existing: string[] = [];
for (let n = 1; n <= 23; n++) {
  const { slug } = await insertArticle(db, {
    slug: `old-${n}`,
    siteIds: [site],
    publishedAt: minutesAgo(n),
    aggregated: n % 2 === 0,
    tags: n % 3 === 0 ? ['Harbour'] : [],
  });
  existing.push(slug);
}

interface ListBody {
  data: Array<{ slug: string }>;
  meta: {
    pagination: {
      page: number;
      pages: number;
      total: number;
      next: number | null;
      nextCursor?: string | null;
    };
  };
}
const get = (url: string, key = siteKey, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url: `/api/v1/client${url}`, headers: { 'x-api-key': key, ...headers } });
const list = async (url: string, key = siteKey) => {
  const response = await get(url, key);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as ListBody;
};

let published = 0;
const publishOne = () => {
  published += 1;
  return insertArticle(db, { slug: `new-${published}`, siteIds: [site], publishedAt: new Date() });
};

async function walk(path: string, by: 'cursor' | 'page', key = siteKey): Promise<string[]> {
  const slugs: string[] = [];
  let url = `${path}${path.includes('?') ? '&' : '?'}limit=5`;
  for (let guard = 0; guard < 50; guard++) {
    const body = await list(url, key);
    slugs.push(...body.data.map((article) => article.slug));
    await publishOne(); // an editor publishes between every two pages
    const { next, nextCursor } = body.meta.pagination;
    if (by === 'cursor') {
      if (!nextCursor) return slugs;
      url = `${path}${path.includes('?') ? '&' : '?'}limit=5&after=${nextCursor}`;
    } else {
      if (next === null) return slugs;
      url = `${path}${path.includes('?') ? '&' : '?'}limit=5&page=${next}`;
    }
  }
  throw new Error('the walk did not end');
}

describe('list cursors (after=, meta.pagination.nextCursor)', () => {
  it('a walk by cursor sees every article that existed when it began once, while articles are published', async () => {
    const slugs = await walk('/posts', 'cursor');
    expect(slugs).toEqual(existing);
  });

  it('a walk by page number repeats articles when some are published meanwhile (why the cursor exists)', async () => {
    const slugs = await walk('/posts', 'page');
    expect(new Set(slugs).size).toBeLessThan(slugs.length);
  });

  it('works with the network key, filters, partner articles and sparse fields', async () => {
    const harbour = existing.filter((_, index) => (index + 1) % 3 === 0);
    expect(await walk('/posts?tag=harbour', 'cursor')).toEqual(harbour);
    expect(await walk('/posts?tag=harbour&site=walk', 'cursor', testApiKey)).toEqual(harbour);
    const partners = existing.filter((_, index) => (index + 1) % 2 === 0);
    expect(await walk('/partner-articles?fields=slug', 'cursor')).toEqual(partners);
  });

  it('numbers a cursor page by where its first article sits, and gives no cursor after the last page', async () => {
    const first = await list('/posts?limit=4');
    const total = first.meta.pagination.total;
    expect(first.meta.pagination).toMatchObject({ page: 1, next: 2, nextCursor: expect.any(String) });
    const second = await list(`/posts?limit=4&after=${first.meta.pagination.nextCursor}`);
    expect(second.meta.pagination).toMatchObject({ page: 2, total, next: 3, prev: 1 });
    const last = await list(`/posts?limit=4&page=${Math.ceil(total / 4)}`);
    expect(last.meta.pagination).toMatchObject({ next: null, nextCursor: null });
  });

  it('continues after an article that has since left the list', async () => {
    const first = await list('/posts?limit=3&fields=slug');
    const gone = first.data.at(-1)?.slug as string;
    await db
      .updateTable('articles')
      .set({ status: 'draft', published_at: null })
      .where('slug', '=', gone)
      .execute();
    const all = (await list('/posts?limit=100&fields=slug')).data.map((article) => article.slug);
    const second = await list(`/posts?limit=3&fields=slug&after=${first.meta.pagination.nextCursor}`);
    expect(second.data.map((article) => article.slug)).toEqual(all.slice(2, 5));
  });

  it('answers a cursor page with its own ETag and 304 on If-None-Match, fresh after a change', async () => {
    const first = await list('/posts?limit=2');
    const url = `/posts?limit=2&after=${first.meta.pagination.nextCursor}`;
    const once = await get(url);
    const etag = once.headers.etag as string;
    expect(etag).toMatch(/^"/);
    expect(etag).not.toBe((await get('/posts?limit=2')).headers.etag);
    expect((await get(url, siteKey, { 'if-none-match': etag })).statusCode).toBe(304);
    const slug = (once.json() as ListBody).data[0]?.slug as string;
    await db.updateTable('articles').set({ title: 'Retitled' }).where('slug', '=', slug).execute();
    await expect.poll(async () => (await get(url)).json().data[0].title, { timeout: 5_000 }).toBe('Retitled');
    expect((await get(url, siteKey, { 'if-none-match': etag })).statusCode).toBe(200);
  });

  it('refuses a cursor it did not hand out, and after with page or q', async () => {
    const first = await list('/posts?limit=2');
    const cursor = first.meta.pagination.nextCursor as string;
    for (const [url, code] of [
      ['/posts?after=nonsense', 'INVALID_CURSOR'],
      [`/posts?after=${Buffer.from('1:123:x').toString('base64url')}`, 'INVALID_CURSOR'],
      [`/posts?after=${cursor}&page=2`, 'VALIDATION_ERROR'],
      [`/posts?after=${cursor}&q=harbour`, 'VALIDATION_ERROR'],
      [`/all?after=${cursor}`, 'VALIDATION_ERROR'],
    ] as const) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json().code, url).toBe(code);
    }
  });

  it('has no cursor on a search', async () => {
    const body = await list('/posts?q=title');
    expect(body.meta.pagination).not.toHaveProperty('nextCursor');
  });

  it('places deep cursors right: past the listing anchors (every 500th article), on site and network lists', async () => {
    const deep = await insertSite(db, 'deep');
    const deepKey = (await issueSiteKey(db, deep)).key;
    // 1,234 articles in one statement (minutes apart, older than everything else), then their host site.
    await sql`insert into articles (title, slug, body, excerpt, tags, status, is_aggregated, published_at)
      select 'Deep ' || n, 'deep-' || n, 'Body', '', '{}', 'published', false,
             timestamptz '2020-01-01 00:00:00+00' - n * interval '1 minute'
      from generate_series(1, 1234) as n`.execute(db);
    await sql`insert into article_sites (article_id, site_id)
      select id, ${deep} from articles where slug like 'deep-%'`.execute(db);
    const numbers: number[] = [];
    const slugs: string[] = [];
    let url = '/posts?limit=100&fields=slug';
    for (;;) {
      const body = await list(url, deepKey);
      numbers.push(body.meta.pagination.page);
      slugs.push(...body.data.map((article) => article.slug));
      const cursor = body.meta.pagination.nextCursor;
      if (!cursor) break;
      url = `/posts?limit=100&fields=slug&after=${cursor}`;
    }
    expect(slugs).toEqual(Array.from({ length: 1234 }, (_, index) => `deep-${index + 1}`));
    expect(numbers).toEqual(Array.from({ length: 13 }, (_, index) => index + 1));
    // The network list holds every other article before these: the cursor page is numbered from its place.
    const network = await list('/posts?limit=100&fields=slug', testApiKey);
    const before = network.meta.pagination.total - 1234;
    const seventh = slugs[699] as string;
    const id = (
      await db.selectFrom('articles').select('id').where('slug', '=', seventh).executeTakeFirstOrThrow()
    ).id;
    const publishedAt = new Date(Date.UTC(2020, 0, 1) - 700 * 60_000);
    const page = await list(
      `/posts?limit=100&fields=slug&after=${encodeListingCursor({ publishedAt, id })}`,
      testApiKey,
    );
    expect(page.data[0]?.slug).toBe('deep-701');
    expect(page.meta.pagination.page).toBe(Math.floor((before + 700) / 100) + 1);
  });
});
