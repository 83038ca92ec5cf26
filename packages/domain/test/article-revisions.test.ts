import { createTestDatabase } from '@newsroom/test-support';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import {
  changeArticleStatus,
  createArticle,
  deleteArticle,
  editArticle,
  getArticle,
  writeArticlePatch,
} from '../src/articles/article.service';
import { setArticleHostSites } from '../src/articles/article-host-sites.service';
import { restoreArticleRevision } from '../src/articles/revisions/article-restore.service';
import { measureRevisionStorage } from '../src/articles/revisions/article-revision.repository';
import {
  diffArticleRevisions,
  getArticleRevision,
  listArticleRevisions,
} from '../src/articles/revisions/article-revision.service';
import {
  articleSnapshot,
  notRestoredFields,
  notSnapshotColumns,
  restorableFields,
} from '../src/articles/revisions/article-snapshot';
import { compactArticleRevisions } from '../src/articles/revisions/revision-compaction';
import { applyDelta, reverseDelta } from '../src/articles/revisions/revision-delta';
import { thinOldDraftRevisions } from '../src/articles/revisions/revision-retention';
import type { RevisionWrite } from '../src/articles/revisions/revision-write';
import { importFeedItems } from '../src/imports/feed-import.service';
import { createSite } from '../src/sites/site.service';
import { feedItem } from './support/feed-items';

const { db, destroy } = await createTestDatabase();
afterAll(destroy);

const alice: RevisionWrite = {
  actor: { kind: 'user', id: 'u-alice', label: 'alice@example.com' },
  source: 'editor',
};
const bob: RevisionWrite = {
  actor: { kind: 'user', id: 'u-bob', label: 'bob@example.com' },
  source: 'editor',
};
const autosave = (write: RevisionWrite): RevisionWrite => ({ ...write, source: 'autosave' });

const content = (title: string, body = '<p>Body</p>') => ({
  title,
  body,
  tags: ['news'],
  category: null,
  section: null,
  thumbnail: null,
  image: null,
});

for (const slug of ['north', 'south', 'east']) await createSite(db, { slug, name: slug, domain: null });

const kindsOf = async (articleId: string) =>
  (
    await db
      .selectFrom('article_revisions')
      .select('kind')
      .where('article_id', '=', articleId)
      .orderBy('n', 'desc')
      .execute()
  ).map((row) => row.kind);

const camel = (column: string) => column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

describe('article revisions', () => {
  it('keeps every column of articles in the snapshot, or says why not', async () => {
    const { rows } = await sql<{ column_name: string }>`select column_name from information_schema.columns
      where table_name = 'articles' and table_schema = current_schema()`.execute(db);
    const article = await createArticle(db, content('Columns'), ['north']);
    const snapshot = articleSnapshot(article);
    const forgotten = rows
      .map((row) => row.column_name)
      .filter((column) => !(column in notSnapshotColumns) && !(camel(column) in snapshot));
    expect(forgotten).toEqual([]);
    expect(snapshot.hostSites).toEqual(['north']);
  });

  it('records one revision per write, with its actor and source, in order', async () => {
    const article = await createArticle(db, content('Headline one'), [], alice);
    await editArticle(db, article.id, { title: 'Headline two' }, undefined, bob);
    await setArticleHostSites(db, article.id, ['south'], alice);
    await changeArticleStatus(db, article.id, 'publish', new Date(), null, { ...bob, source: 'api' });
    const { items, total } = await listArticleRevisions(db, article.id, { page: 1, limit: 10 });
    expect(total).toBe(4);
    expect(items.map((item) => [item.n, item.actor.label, item.source, item.status])).toEqual([
      [4, 'bob@example.com', 'api', 'published'],
      [3, 'alice@example.com', 'editor', 'draft'],
      [2, 'bob@example.com', 'editor', 'draft'],
      [1, 'alice@example.com', 'editor', 'draft'],
    ]);
    expect((await getArticleRevision(db, article.id, 1)).snapshot.title).toBe('Headline one');
    const diff = await diffArticleRevisions(db, article.id, 1, 3);
    expect(diff.fields.map((field) => field.field).sort()).toEqual(['hostSites', 'title']);
  });

  it("records an import's articles as revision 1 by the publisher's feed, with their host sites", async () => {
    const { id: publisherId } = await db
      .insertInto('publishers')
      .values({
        name: 'Daily Planet',
        feed_url: 'https://planet.example/feed',
        approved: true,
        auto_approve: false,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // Linked in another order than the snapshot keeps them (sorted, as the admin read answers them).
    const sites = await db
      .selectFrom('sites')
      .select('id')
      .where('slug', 'in', ['south', 'east', 'north'])
      .execute();
    await db
      .insertInto('publisher_default_sites')
      .values(sites.map((site) => ({ publisher_id: publisherId, site_id: site.id })))
      .execute();
    const items = [feedItem(901), feedItem(902), feedItem(903)];
    const fetched = { notModified: false, items, etag: null, lastModified: null };
    await importFeedItems(db, publisherId, fetched);
    // The same items again: skipped, so no article, no link and no revision.
    await importFeedItems(db, publisherId, fetched);
    const rows = await db
      .selectFrom('article_revisions')
      .innerJoin('articles', 'articles.id', 'article_revisions.article_id')
      .select([
        'article_revisions.n',
        'actor_kind',
        'actor_id',
        'actor_label',
        'article_revisions.source',
        'article_revisions.status',
        'articles.id',
      ])
      .where('articles.publisher_id', '=', publisherId)
      .execute();
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row).toMatchObject({
        n: 1,
        actor_kind: 'feed',
        actor_id: publisherId,
        actor_label: 'Daily Planet',
        source: 'import',
        status: 'pending',
      });
      const revision = await getArticleRevision(db, row.id, 1);
      expect(revision.snapshot).toEqual(articleSnapshot(await getArticle(db, row.id)));
      expect(revision.snapshot.hostSites).toEqual(['east', 'north', 'south']);
    }
    const links = await db
      .selectFrom('article_sites')
      .select(db.fn.countAll<string>().as('n'))
      .where(
        'article_id',
        'in',
        rows.map((row) => row.id),
      )
      .executeTakeFirstOrThrow();
    expect(Number(links.n)).toBe(9);
  });

  it('goes with its article, one deleted or many at once', async () => {
    // Their revisions and their queued compaction, together.
    const revisionCount = async (ids: string[]) => {
      let total = 0;
      for (const table of ['article_revisions', 'article_revision_compactions'] as const) {
        const { n } = await db
          .selectFrom(table)
          .select(db.fn.countAll<string>().as('n'))
          .where('article_id', 'in', ids)
          .executeTakeFirstOrThrow();
        total += Number(n);
      }
      return total;
    };
    const kept = await createArticle(db, content('Kept'), [], alice);
    const gone = await createArticle(db, content('Gone'), [], alice);
    await editArticle(db, gone.id, { title: 'Gone, edited' }, undefined, bob); // queues its compaction too
    expect(await revisionCount([gone.id])).toBe(3);
    await deleteArticle(db, gone.id);
    expect(await revisionCount([gone.id])).toBe(0);
    expect(await revisionCount([kept.id])).toBe(1);

    // Several at once (one statement: the trigger runs once for all of them).
    const many = await Promise.all(
      ['One', 'Two', 'Three'].map((title) => createArticle(db, content(title), [], alice)),
    );
    const ids = many.map((article) => article.id);
    expect(await revisionCount(ids)).toBe(3);
    await db.deleteFrom('articles').where('id', 'in', ids).execute();
    expect(await revisionCount(ids)).toBe(0);
    expect(await revisionCount([kept.id])).toBe(1);
  });

  it('does not record a write that fails', async () => {
    const article = await createArticle(db, content('Stale'), [], alice);
    await expect(editArticle(db, article.id, { title: 'x' }, ['1'], bob)).rejects.toThrow();
    expect((await listArticleRevisions(db, article.id, { page: 1, limit: 10 })).total).toBe(1);
  });

  it("collapses one person's autosaves within minutes, but not another's or a manual save", async () => {
    const article = await createArticle(db, content('Autosaved'), [], alice);
    for (const title of ['A1', 'A2', 'A3']) {
      await editArticle(db, article.id, { title }, undefined, autosave(alice));
    }
    await editArticle(db, article.id, { title: 'B1' }, undefined, autosave(bob));
    await editArticle(db, article.id, { title: 'A4' }, undefined, alice);
    const { items } = await listArticleRevisions(db, article.id, { page: 1, limit: 10 });
    expect(items.map((item) => [item.n, item.source])).toEqual([
      [4, 'editor'],
      [3, 'autosave'],
      [2, 'autosave'],
      [1, 'editor'],
    ]);
    expect((await getArticleRevision(db, article.id, 2)).snapshot.title).toBe('A3');
    expect((await getArticleRevision(db, article.id, 1)).snapshot.title).toBe('Autosaved');
  });

  it("times a revision by the writer's clock, the one the next autosave's collapse is judged by", async () => {
    // An API host whose clock is 10 minutes ahead of the database's: two autosaves a minute apart by its clock
    // collapse (judged against the database's time for the first, they would be 11 minutes apart).
    const article = await createArticle(db, content('Clocked'), [], alice);
    const at = new Date(Date.now() + 10 * 60_000);
    await writeArticlePatch(db, article.id, { title: 'At ten to' }, undefined, autosave(alice), at);
    const later = new Date(at.getTime() + 60_000);
    await writeArticlePatch(db, article.id, { title: 'A minute later' }, undefined, autosave(alice), later);
    const { items } = await listArticleRevisions(db, article.id, { page: 1, limit: 10 });
    expect(items.map((item) => [item.n, item.createdAt.toISOString()])).toEqual([
      [2, new Date(at.getTime() + 60_000).toISOString()],
      [1, expect.any(String)],
    ]);
  });

  it('restores content as a new revision and never changes the status', async () => {
    const article = await createArticle(
      db,
      content('Before correction', '<p>Wrong figure: 12</p>'),
      ['north'],
      alice,
    );
    await changeArticleStatus(db, article.id, 'publish', new Date(), null, alice);
    await editArticle(db, article.id, { title: 'After', body: '<p>Right figure: 21</p>' }, undefined, bob);
    const restored = await restoreArticleRevision(db, article.id, 1, undefined, alice);
    expect(restored).toMatchObject({ restoredFrom: 1, revision: 4, missingHostSites: [] });
    expect(restored.article).toMatchObject({ title: 'Before correction', status: 'published' });
    const newest = await getArticleRevision(db, article.id, 4);
    expect(newest).toMatchObject({ source: 'restore', status: 'published' });
  });

  it('restoring revision n reproduces snapshot n, host sites, tags and images included (random histories)', async () => {
    const restorable = (snapshot: Record<string, unknown>) => {
      const { fields, hostSites } = restorableFields(snapshot);
      return { ...fields, hostSites: [...hostSites].sort() };
    };
    const text = fc.string({ minLength: 1, maxLength: 40 }).map((value) => value.replace(/[<>&]/g, ''));
    const edit = fc.oneof(
      fc.record({
        kind: fc.constant('fields' as const),
        title: text.filter((value) => value.trim() !== ''),
        body: text,
      }),
      fc.record({
        kind: fc.constant('more' as const),
        tags: fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 3 }),
        category: fc.option(fc.constantFrom('Politics', 'Sport')),
        section: fc.option(fc.constantFrom('World', 'Local')),
        image: fc.option(fc.constantFrom('https://img.example/1.jpg', 'https://img.example/2.jpg')),
        thumbnail: fc.option(fc.constantFrom('https://img.example/t.jpg')),
      }),
      fc.record({ kind: fc.constant('sites' as const), sites: fc.subarray(['north', 'south', 'east']) }),
      fc.record({ kind: fc.constant('status' as const) }),
      fc.record({ kind: fc.constant('autosave' as const), body: text }),
      // The worker's pass, at any point: even over an autosave that could still collapse (a later now).
      fc.record({ kind: fc.constant('compact' as const), later: fc.boolean() }),
    );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 8 }), fc.nat(), async (edits, pick) => {
        run += 1;
        const article = await createArticle(db, content(`Property ${run}`), [], alice);
        for (const step of edits) {
          if (step.kind === 'fields')
            await editArticle(
              db,
              article.id,
              { title: step.title, body: `<p>${step.body}</p>` },
              undefined,
              alice,
            );
          else if (step.kind === 'autosave')
            await editArticle(db, article.id, { body: `<p>${step.body}</p>` }, undefined, autosave(alice));
          else if (step.kind === 'more') {
            const { kind: _kind, ...fields } = step;
            // Issue 32: a picture set by an editor carries alt text.
            const alt = (url: string | null) => (url === null ? null : { alt: `Alt of ${url}` });
            const meta = { imageMeta: alt(fields.image), thumbnailMeta: alt(fields.thumbnail) };
            await editArticle(db, article.id, { ...fields, ...meta }, undefined, bob);
          } else if (step.kind === 'sites') await setArticleHostSites(db, article.id, step.sites, bob);
          else if (step.kind === 'compact') {
            await compactArticleRevisions(db, { now: new Date(Date.now() + (step.later ? 3_600_000 : 0)) });
          } else {
            const { status } = await getArticle(db, article.id);
            await changeArticleStatus(
              db,
              article.id,
              status === 'published' ? 'unpublish' : 'publish',
              new Date(),
              null,
              bob,
            );
          }
        }
        const { total } = await listArticleRevisions(db, article.id, { page: 1, limit: 1 });
        const n = (pick % total) + 1;
        const target = await getArticleRevision(db, article.id, n);
        const statusBefore = (await getArticle(db, article.id)).status;
        const restored = await restoreArticleRevision(db, article.id, n, undefined, alice);
        expect(restored.article.status).toBe(statusBefore);
        const after = await getArticleRevision(db, article.id, restored.revision);
        expect(restorable(after.snapshot)).toEqual(restorable(target.snapshot));
        expect(restorable(articleSnapshot(await getArticle(db, article.id)))).toEqual(
          restorable(target.snapshot),
        );
      }),
      { numRuns: 25, seed: 30 },
    );
  });

  it('keeps 50 edits of a 3 KB article in at most twice its size', async () => {
    const paragraph = (i: number) =>
      `<p>Paragraph ${i}: the council met on Tuesday to discuss the budget for the coming year, and members raised questions about road repairs and the library.</p>`;
    let body = Array.from({ length: 20 }, (_, i) => paragraph(i)).join('');
    expect(body.length).toBeGreaterThanOrEqual(3_000);
    const article = await createArticle(db, content('Council budget', body), ['north'], alice);
    for (let i = 1; i < 50; i++) {
      body = body.replace(`Paragraph ${i % 20}:`, `Paragraph ${i % 20} (update ${i}):`);
      await editArticle(db, article.id, { body }, undefined, i % 2 ? alice : bob);
    }
    // Each write stored its revision whole; the worker's pass turns all but the newest into deltas.
    expect(await kindsOf(article.id)).toEqual(Array.from({ length: 50 }, () => 'snapshot'));
    await compactArticleRevisions(db);
    expect(await kindsOf(article.id)).toEqual(['snapshot', ...Array.from({ length: 49 }, () => 'delta')]);
    const storage = await measureRevisionStorage(db, article.id);
    expect(storage.revisions).toBe(50);
    expect(storage.dataBytes).toBeLessThanOrEqual(2 * body.length);
    // And every one of them still reads back.
    expect((await getArticleRevision(db, article.id, 1)).snapshot.body).not.toContain('update');
  });

  it('thins old draft revisions, keeps published versions, the first and the newest, and every kept one reads back', async () => {
    const article = await createArticle(db, content('Thinned', '<p>v1</p>'), [], alice);
    for (let v = 2; v <= 8; v++) {
      if (v === 5) await changeArticleStatus(db, article.id, 'publish', new Date(), null, alice);
      else if (v === 6) await changeArticleStatus(db, article.id, 'unpublish', new Date(), null, alice);
      else await editArticle(db, article.id, { body: `<p>v${v}</p>` }, undefined, alice);
    }
    const before = new Map<number, unknown>();
    for (let n = 1; n <= 8; n++) before.set(n, (await getArticleRevision(db, article.id, n)).snapshot);
    // Revisions 1..6 are "old"; 7 and 8 are recent.
    const old = new Date(Date.now() - 90 * 86_400_000);
    await db
      .updateTable('article_revisions')
      .set({ created_at: old })
      .where('article_id', '=', article.id)
      .where('n', '<=', 6)
      .execute();
    const result = await thinOldDraftRevisions(db, new Date(Date.now() - 30 * 86_400_000));
    expect(result.removed).toBeGreaterThanOrEqual(4);
    const { items } = await listArticleRevisions(db, article.id, { page: 1, limit: 20 });
    expect(items.map((item) => item.n)).toEqual([8, 7, 5, 1]);
    for (const item of items) {
      expect((await getArticleRevision(db, article.id, item.n)).snapshot).toEqual(before.get(item.n));
    }
  });

  it('applies a reverse delta exactly, surrogate pairs included', () => {
    const newer = { body: `${'x'.repeat(70)}😀 tail`, tags: ['a'], added: 1 };
    const older = { body: `${'x'.repeat(70)}😁 tail`, tags: ['b'] };
    expect(applyDelta(newer, reverseDelta(newer, older))).toEqual(older);
    expect(notRestoredFields).toContain('status');
  });
});
