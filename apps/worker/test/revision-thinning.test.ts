import { changeArticleStatus, createArticle, editArticle } from '@newsroom/domain';
import { createTestDatabase } from '@newsroom/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { startRevisionCompaction } from '../src/revisions/revision-compaction';
import { startRevisionThinning } from '../src/revisions/revision-thinning';

const { db, destroy } = await createTestDatabase();
afterAll(destroy);

describe('revision thinning and compaction in the worker', () => {
  it('thins draft revisions older than the retention and keeps the published version', async () => {
    const article = await createArticle(db, {
      title: 'Old draft',
      body: '<p>v1</p>',
      tags: [],
      category: null,
      section: null,
      thumbnail: null,
      image: null,
    });
    await editArticle(db, article.id, { body: '<p>v2</p>' });
    await changeArticleStatus(db, article.id, 'publish');
    await editArticle(db, article.id, { body: '<p>v4</p>' });
    await editArticle(db, article.id, { body: '<p>v5</p>' });
    await db
      .updateTable('article_revisions')
      .set({ created_at: new Date('2020-01-01T00:00:00Z') })
      .execute();
    const thinning = startRevisionThinning({ db, retentionMs: 30 * 86_400_000, intervalMs: 3_600_000 });
    await thinning.runNow();
    await thinning.close();
    const left = await db
      .selectFrom('article_revisions')
      .select(['n', 'status'])
      .where('article_id', '=', article.id)
      .orderBy('n')
      .execute();
    // 1 (first), 3 (published), 4 (published: edited while published), 5 (newest); 2 was a draft.
    expect(left.map((row) => row.n)).toEqual([1, 3, 4, 5]);
  });

  it('turns the snapshots below the newest revision into deltas, and empties the queue', async () => {
    const article = await createArticle(db, {
      title: 'Compacted',
      body: '<p>v1</p>',
      tags: [],
      category: null,
      section: null,
      thumbnail: null,
      image: null,
    });
    await editArticle(db, article.id, { body: '<p>v2</p>' });
    await editArticle(db, article.id, { body: '<p>v3</p>' });
    const compaction = startRevisionCompaction({ db, intervalMs: 3_600_000 });
    await compaction.runNow();
    await compaction.stop();
    const kinds = await db
      .selectFrom('article_revisions')
      .select('kind')
      .where('article_id', '=', article.id)
      .orderBy('n', 'desc')
      .execute();
    expect(kinds.map((row) => row.kind)).toEqual(['snapshot', 'delta', 'delta']);
    const queued = await db.selectFrom('article_revision_compactions').selectAll().execute();
    expect(queued).toEqual([]);
  });
});
