import { afterAll, describe, expect, it, vi } from 'vitest';
import { type ChangeItem, type ChangesPage, followChanges } from '../support/change-feed-reader';
import { insertArticle, insertSite, issueSiteKey, minutesAgo } from '../support/content-fixtures';
import { createTestApp, testApiKey } from '../support/test-app';

// The change feed from nothing (`initial=true`, as Contentful's Sync): every article the key sees as upserts,
// page by page, then the changes since the start, so a child site needs no /client/all and no cursor first.
vi.setConfig({ testTimeout: 120_000 });
const { app, db, close } = await createTestApp({ env: { RATE_LIMIT_CLIENT_ALL: 'off' } });
afterAll(close);

const north = await insertSite(db, 'north');
const south = await insertSite(db, 'south');
const northKey = (await issueSiteKey(db, north)).key;
for (let n = 1; n <= 8; n++) {
  await insertArticle(db, { slug: `north-${n}`, siteIds: [north], publishedAt: minutesAgo(n) });
}
await insertArticle(db, { slug: 'south-only', siteIds: [south], publishedAt: minutesAgo(1) });
await insertArticle(db, { slug: 'draft', siteIds: [north], status: 'draft' });

const get = (url: string, key = northKey) =>
  app.inject({ method: 'GET', url: `/api/v1/client${url}`, headers: { 'x-api-key': key } });
const page = async (url: string, key = northKey) => {
  const response = await get(url, key);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as ChangesPage;
};
const allOf = async (key = northKey) => {
  const body = (await get('/all', key)).json() as { data: Array<{ id: string }> };
  return [...body.data].sort((a, b) => a.id.localeCompare(b.id));
};

/** A copy built from nothing: initial=true, then every page, applying upserts and deletes. */
function apply(copy: Map<string, unknown>, items: ChangeItem[]): void {
  for (const item of items) {
    if (item.type === 'upsert') copy.set(item.id, item.article);
    else copy.delete(item.id);
  }
}

describe('GET /client/changes?initial=true', () => {
  it('serves every article the key sees as upserts, page by page, then continues with the changes', async () => {
    const first = await page('/changes?initial=true&limit=3');
    expect(first.data.map((item) => [item.type, item.slug])).toEqual([
      ['upsert', 'north-1'],
      ['upsert', 'north-2'],
      ['upsert', 'north-3'],
    ]);
    const article = (await get('/article/north-1')).json();
    expect(first.data[0]).toEqual({
      cursor: expect.any(String),
      type: 'upsert',
      id: article.id,
      slug: 'north-1',
      article,
    });
    expect(first.meta.hasMore).toBe(true);

    const copy = new Map<string, unknown>();
    apply(copy, first.data);
    // While the copy is being built: one article published, one not yet served unpublished, one edited.
    await insertArticle(db, { slug: 'north-new', siteIds: [north], publishedAt: new Date() });
    await db
      .updateTable('articles')
      .set({ status: 'draft', published_at: null })
      .where('slug', '=', 'north-7')
      .execute();
    await db.updateTable('articles').set({ title: 'Edited' }).where('slug', '=', 'north-1').execute();

    // Follows on (bounded: the feed waits for other sessions' open transactions) until the copy equals /all.
    const deadline = Date.now() + 90_000;
    let next = first.meta.next;
    let sorted: Array<{ id: string; slug: string; title: string }> = [];
    for (;;) {
      const step = await followChanges((url) => get(url), next, { limit: 3, timeoutMs: 0 });
      apply(copy, step.items);
      next = step.next;
      sorted = [...copy.values()].sort((a, b) =>
        (a as { id: string }).id.localeCompare((b as { id: string }).id),
      ) as typeof sorted;
      if (JSON.stringify(sorted) === JSON.stringify(await allOf()) || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(sorted).toEqual(await allOf());
    expect(sorted.map((entry) => entry.slug)).toContain('north-new');
    expect(sorted.map((entry) => entry.slug)).not.toContain('north-7');
    expect(sorted.some((entry) => (entry as { title: string }).title === 'Edited')).toBe(true);
  });

  it('resumes from any item cursor of the first pass', async () => {
    const whole = (await page('/changes?initial=true&limit=100')).data.map((item) => item.slug);
    const first = await page('/changes?initial=true&limit=2');
    const resumed = await page(`/changes?since=${first.data[0]?.cursor}&limit=100`);
    expect(resumed.data.map((item) => item.slug)).toEqual(whole.slice(1));
  });

  it('for the network key: every site; with ?site= one site', async () => {
    const network = await page('/changes?initial=true&limit=500', testApiKey);
    const slugs = network.data.map((item) => item.slug);
    expect(slugs).toContain('south-only');
    expect(slugs).not.toContain('draft');
    const southOnly = await page('/changes?initial=true&site=south', testApiKey);
    expect(southOnly.data.map((item) => item.slug)).toEqual(['south-only']);
  });

  it('an empty scope goes straight to following the changes', async () => {
    const empty = await insertSite(db, 'empty');
    const key = (await issueSiteKey(db, empty)).key;
    const body = await page('/changes?initial=true', key);
    expect(body).toEqual({ data: [], meta: { next: expect.any(String), hasMore: true } });
    expect((await page(`/changes?since=${body.meta.next}`, key)).meta.hasMore).toBe(false);
  });

  it('refuses initial with since, and a snapshot cursor it did not hand out', async () => {
    const { meta } = await page('/changes?initial=true&limit=1');
    const invalid = Buffer.from(`s1:1:00000000-0000-0000-0000-000000000000:x:y`).toString('base64url');
    for (const [url, code] of [
      [`/changes?initial=true&since=${meta.next}`, 'VALIDATION_ERROR'],
      [`/changes?since=${invalid}`, 'INVALID_CURSOR'],
    ] as const) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json().code, url).toBe(code);
    }
  });
});
