import { createTestDatabase } from '@newsroom/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { createArticle, editArticle } from '../src/articles/article.service';
import { getArticleRevision, listArticleRevisions } from '../src/articles/revisions/article-revision.service';
import { compactArticleRevisions, compactionDelayMs } from '../src/articles/revisions/revision-compaction';
import type { RevisionWrite } from '../src/articles/revisions/revision-write';

// The deferred half of a revision: the worker's pass turning whole snapshots below the newest into deltas.

const { db, destroy } = await createTestDatabase();
afterAll(destroy);

const alice: RevisionWrite = {
  actor: { kind: 'user', id: 'u-alice', label: 'alice@example.com' },
  source: 'editor',
};
const autosave: RevisionWrite = { ...alice, source: 'autosave' };
const content = (title: string) => ({
  title,
  body: `<p>${title}: ${'words '.repeat(20)}</p>`,
  tags: [],
  category: null,
  section: null,
  thumbnail: null,
  image: null,
});

const kindsOf = async (articleId: string) =>
  (
    await db
      .selectFrom('article_revisions')
      .select('kind')
      .where('article_id', '=', articleId)
      .orderBy('n', 'desc')
      .execute()
  ).map((row) => row.kind);
const queued = async (articleId: string) =>
  db
    .selectFrom('article_revision_compactions')
    .selectAll()
    .where('article_id', '=', articleId)
    .executeTakeFirst();
const snapshotsOf = async (articleId: string) => {
  const { items } = await listArticleRevisions(db, articleId, { page: 1, limit: 100 });
  return Promise.all(items.map(async (item) => (await getArticleRevision(db, articleId, item.n)).snapshot));
};

describe('revision compaction', () => {
  it('waits while the newest is an autosave that may still collapse, then compacts', async () => {
    const article = await createArticle(db, content('Draft'), [], alice);
    await editArticle(db, article.id, { title: 'Typing' }, undefined, autosave);
    const now = new Date();
    await compactArticleRevisions(db, { now });
    expect(await kindsOf(article.id)).toEqual(['snapshot', 'snapshot']);
    const waiting = await queued(article.id);
    expect(waiting?.due_at.getTime()).toBeGreaterThan(now.getTime());
    // The next autosave still collapses into revision 2.
    await editArticle(db, article.id, { title: 'Typing more' }, undefined, autosave);
    expect(await kindsOf(article.id)).toEqual(['snapshot', 'snapshot']);
    await compactArticleRevisions(db, { now: new Date(now.getTime() + compactionDelayMs + 60_000) });
    expect(await kindsOf(article.id)).toEqual(['snapshot', 'delta']);
    expect(await queued(article.id)).toBeUndefined();
    expect((await getArticleRevision(db, article.id, 1)).snapshot.title).toBe('Draft');
    expect((await getArticleRevision(db, article.id, 2)).snapshot.title).toBe('Typing more');
  });

  it('never lets an autosave collapse over a delta: it starts a new revision instead', async () => {
    const article = await createArticle(db, content('Start'), [], alice);
    await editArticle(db, article.id, { title: 'Auto 1' }, undefined, autosave);
    // A pass whose clock runs ahead compacts revision 1 although revision 2 could still collapse.
    await compactArticleRevisions(db, { now: new Date(Date.now() + 3_600_000) });
    await editArticle(db, article.id, { title: 'Auto 2' }, undefined, autosave);
    expect(await kindsOf(article.id)).toEqual(['snapshot', 'snapshot', 'delta']);
    expect((await getArticleRevision(db, article.id, 1)).snapshot.title).toBe('Start');
    expect((await getArticleRevision(db, article.id, 2)).snapshot.title).toBe('Auto 1');
  });

  it('two passes at once (two worker replicas) compact every article once, and every revision reads back', async () => {
    const ids: string[] = [];
    for (let a = 0; a < 12; a++) {
      const article = await createArticle(db, content(`Parallel ${a}`), [], alice);
      for (let e = 1; e <= 3; e++) {
        await editArticle(db, article.id, { title: `Parallel ${a} edit ${e}` }, undefined, alice);
      }
      ids.push(article.id);
    }
    const before = await Promise.all(ids.map(snapshotsOf));
    const results = await Promise.all([
      compactArticleRevisions(db, { batchSize: 5 }),
      compactArticleRevisions(db, { batchSize: 5 }),
    ]);
    expect(results.reduce((sum, result) => sum + result.revisions, 0)).toBe(12 * 3);
    for (const id of ids) {
      expect(await kindsOf(id)).toEqual(['snapshot', 'delta', 'delta', 'delta']);
      expect(await queued(id)).toBeUndefined();
    }
    expect(await Promise.all(ids.map(snapshotsOf))).toEqual(before);
  });
});
