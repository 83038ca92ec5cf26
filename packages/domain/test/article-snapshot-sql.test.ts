import { createTestDatabase } from '@newsroom/test-support';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { changeArticleStatus, createArticle, editArticle, getArticle } from '../src/articles/article.service';
import { articleSnapshot } from '../src/articles/revisions/article-snapshot';
import { createSite } from '../src/sites/site.service';

// An edit's revision is built by the database (`article_snapshot`, migration 2026-12-02T0100), every other
// write's by the API (articleSnapshotJson over the article as read). Restore, diff and compaction compare them:
// they must be equal for articles of every shape, to the millisecond and the key. Each case edits an article
// of that shape and compares the revision the edit recorded with the API's snapshot of the article it answered.

const { db, destroy } = await createTestDatabase();
afterAll(destroy);

for (const slug of ['north', 'south', 'east']) await createSite(db, { slug, name: slug, domain: null });

/** Edits the article (its title, as it is) and answers the revision the database recorded, with the article. */
const editedSnapshots = async (id: string) => {
  const article = await editArticle(db, id, { title: (await getArticle(db, id)).title });
  const { rows } = await sql<{ data: Record<string, unknown> }>`select data from article_revisions
    where article_id = ${id} order by n desc limit 1`.execute(db);
  return { database: rows[0]?.data, api: articleSnapshot(article) };
};

// Text with what quoting and JSON get wrong: quotes, backslashes, JSON escapes, astral characters.
const text = fc
  .string({
    unit: fc.constantFrom('a', 'Z', ' ', "'", '"', '\\', '\n', '\t', 'é', '😀', '$', '{', '}', '%'),
    minLength: 1,
    maxLength: 30,
  })
  .map((value) => value.replace(/\s+/g, ' ').trim() || 'x');
// A time with microseconds (as now() writes them), of which JavaScript keeps the milliseconds.
const micros = fc
  .integer({ min: 0, max: 2_000_000_000_000_000 })
  .map((us) =>
    new Date(Number(BigInt(us) / 1000n)).toISOString().replace('Z', `${String(us % 1000).padStart(3, '0')}Z`),
  );

const shape = fc.record({
  title: text,
  body: text.map((value) => `<p>${value.replace(/[<>&]/g, '')}</p>`),
  tags: fc.uniqueArray(fc.constantFrom('news', 'sport', 'élan', "o'clock"), { maxLength: 3 }),
  category: fc.option(text),
  standfirst: fc.option(text),
  bylines: fc.array(fc.record({ name: text, url: fc.option(fc.constant('https://example.com/a')) }), {
    maxLength: 3,
  }),
  image: fc.option(fc.constantFrom('https://img.example/1.jpg')),
  alt: fc.option(text),
  thumbnailWithoutAlt: fc.boolean(),
  hostSites: fc.uniqueArray(fc.constantFrom('north', 'south', 'east'), { maxLength: 3 }),
  publish: fc.boolean(),
  sourcePublishedAt: fc.option(micros),
  storedCorrections: fc.array(
    fc.record({
      text,
      at: micros,
      by: fc.option(fc.constant({ userId: 'u-1', name: 'Ed' }), { nil: undefined }),
    }),
    { maxLength: 2 },
  ),
  rawBylines: fc.boolean(),
});

describe('the database-built snapshot', () => {
  it('equals the API-built one for articles of every shape', async () => {
    await fc.assert(
      fc.asyncProperty(shape, async (s) => {
        const created = await createArticle(
          db,
          {
            title: s.title,
            body: s.body,
            tags: s.tags,
            category: s.category,
            section: null,
            thumbnail: null,
            image: s.image,
            imageMeta: s.image
              ? { alt: s.alt ?? 'A picture', caption: s.alt, width: 1200, height: 675 }
              : null,
            bylines: s.bylines,
            standfirst: s.standfirst,
          },
          s.hostSites,
        );
        if (s.publish) await changeArticleStatus(db, created.id, 'publish');
        // What only other writers or older rows leave: a picture without alt text, times with microseconds,
        // corrections and bylines with keys missing.
        await db
          .updateTable('articles')
          .set({
            ...(s.thumbnailWithoutAlt && { thumbnail: 'https://img.example/t.jpg' }),
            ...(s.sourcePublishedAt && { source_published_at: s.sourcePublishedAt }),
            ...(s.publish && { published_at: s.sourcePublishedAt ?? sql`now()` }),
            corrections: JSON.stringify(s.storedCorrections),
            ...(s.rawBylines && { bylines: JSON.stringify([{ name: 'Only a name' }, { url: null }]) }),
          })
          .where('id', '=', created.id)
          .execute();
        const { database, api } = await editedSnapshots(created.id);
        expect(database).toEqual(api);
      }),
      { numRuns: 60 },
    );
  });

  it('has the same keys as the API-built one for an article with every field set', async () => {
    const created = await createArticle(db, {
      title: 'Every field',
      body: '<p>Body</p>',
      tags: ['news'],
      category: 'Politics',
      section: 'World',
      thumbnail: 'https://img.example/t.jpg',
      image: 'https://img.example/i.jpg',
      thumbnailMeta: { alt: 'Thumb', focalPoint: { x: 0.25, y: 0.75 } },
      imageMeta: { alt: 'Image', credit: 'Agency' },
      bylines: [{ name: 'Ann', url: 'https://example.com/ann' }],
      standfirst: 'A standfirst',
    });
    const { database, api } = await editedSnapshots(created.id);
    expect(Object.keys(database ?? {}).sort()).toEqual(Object.keys(api).sort());
  });
});
