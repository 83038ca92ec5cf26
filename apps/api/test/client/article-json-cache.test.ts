import type { PublishedArticle } from '@newsroom/domain';
import { describe, expect, it } from 'vitest';
import { ArticleJsonCache, type LoadArticles } from '../../src/delivery/article-json-cache';
import type { SerialisedArticle } from '../../src/delivery/page-assembly';

// The cache's own rules, with a loader standing in for the two Postgres reads (covered by the route tests).
const articleOf = (id: string, title = `Title ${id}`) => ({ id, title }) as PublishedArticle;
const serialize = (article: PublishedArticle) => JSON.stringify({ id: article.id, title: article.title });

/** A loader over an in-memory table of id -> {version, title}, recording which ids it was asked for. */
function table(rows: Record<string, { version: string; title?: string }>) {
  const asked: string[][] = [];
  const load: LoadArticles = async (ids) => {
    asked.push([...ids]);
    return ids
      .filter((id) => rows[id])
      .map((id) => ({ article: articleOf(id, rows[id]?.title), version: rows[id]?.version as string }));
  };
  return { rows, asked, load };
}
const text = (articles: SerialisedArticle[] | null) =>
  articles?.map((article) => article.json.toString()) ?? null;

describe('ArticleJsonCache', () => {
  it('reads only the versions it does not hold, in page order', async () => {
    const cache = new ArticleJsonCache(1024 * 1024);
    const { rows, asked, load } = table({ a: { version: '1' }, b: { version: '1' }, c: { version: '1' } });
    const page = [
      { id: 'c', version: '1' },
      { id: 'a', version: '1' },
    ];
    expect(text(await cache.jsonOf(page, load, serialize))).toEqual([
      '{"id":"c","title":"Title c"}',
      '{"id":"a","title":"Title a"}',
    ]);
    expect(await cache.jsonOf(page, load, serialize)).not.toBeNull();
    rows.a = { version: '2', title: 'New a' };
    const next = [
      { id: 'b', version: '1' },
      { id: 'a', version: '2' },
      { id: 'c', version: '1' },
    ];
    expect(text(await cache.jsonOf(next, load, serialize))).toEqual([
      '{"id":"b","title":"Title b"}',
      '{"id":"a","title":"New a"}',
      '{"id":"c","title":"Title c"}',
    ]);
    expect(asked).toEqual([
      ['c', 'a'],
      ['b', 'a'],
    ]);
  });

  it('gives up (null) when an article changed or left between the page read and its own read', async () => {
    const cache = new ArticleJsonCache(1024 * 1024);
    const { load } = table({ a: { version: '3' } });
    expect(await cache.jsonOf([{ id: 'a', version: '2' }], load, serialize)).toBeNull();
    expect(await cache.jsonOf([{ id: 'gone', version: '1' }], load, serialize)).toBeNull();
    // What it read is still a true state of its version, kept for the next page read.
    expect(text(await cache.jsonOf([{ id: 'a', version: '3' }], async () => [], serialize))).toEqual([
      '{"id":"a","title":"Title a"}',
    ]);
  });

  it('stays within its byte budget, and keeps nothing at 0', async () => {
    const rows = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`id${i}`, { version: '1' }]));
    const bounded = new ArticleJsonCache(1000);
    const all = Object.keys(rows).map((id) => ({ id, version: '1' }));
    const first = table(rows);
    await bounded.jsonOf(all, first.load, serialize);
    const again = table(rows);
    await bounded.jsonOf(all, again.load, serialize);
    // Each entry counts ~90 bytes (its JSON and digest): at most ~11 of 100 can still be held.
    expect(again.asked[0]?.length).toBeGreaterThanOrEqual(90);

    const off = new ArticleJsonCache(0);
    const offTable = table(rows);
    await off.jsonOf(all.slice(0, 3), offTable.load, serialize);
    await off.jsonOf(all.slice(0, 3), offTable.load, serialize);
    expect(offTable.asked).toEqual([
      ['id0', 'id1', 'id2'],
      ['id0', 'id1', 'id2'],
    ]);
  });

  it('tells its observer how many articles of a page it held, read, or could not hold', async () => {
    const lookups: Array<[string, number | undefined]> = [];
    const observe = (result: string, count?: number) => void lookups.push([result, count]);
    const { load } = table({ a: { version: '1' }, b: { version: '1' } });
    const cache = new ArticleJsonCache(1024 * 1024, observe);
    await cache.jsonOf([{ id: 'a', version: '1' }], load, serialize);
    await cache.jsonOf(
      [
        { id: 'a', version: '1' },
        { id: 'b', version: '1' },
      ],
      load,
      serialize,
    );
    expect(lookups).toEqual([
      ['miss', 1],
      ['miss', 1],
      ['hit', 1],
    ]);
    const off = new ArticleJsonCache(0, observe);
    lookups.length = 0;
    await off.jsonOf(
      [
        { id: 'a', version: '1' },
        { id: 'b', version: '1' },
      ],
      load,
      serialize,
    );
    expect(lookups).toEqual([['bypass', 2]]);
  });
});
