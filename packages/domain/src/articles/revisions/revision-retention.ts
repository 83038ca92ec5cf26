import type { Db } from '../../db/create-db';
import { lockArticleById } from '../article-lock.repository';
import {
  deleteRevisions,
  findAllRevisions,
  findArticlesWithOldDraftRevisions,
  type RevisionRow,
  updateRevisionData,
} from './article-revision.repository';
import type { ArticleSnapshot } from './article-snapshot';
import { applyDelta, reverseDelta, type SnapshotDelta } from './revision-delta';

/** Default age after which revisions of unpublished versions are thinned. */
export const defaultDraftRetentionDays = 30;

/**
 * Thins old history: a revision is removed when it is older than `before`, was not a published version
 * (every published version is kept forever), and is neither the article's first nor its newest revision.
 * The deltas of the revisions kept are rebuilt so every one still reads back exactly. Numbers are not
 * reused: the History shows the gaps. At most `maxArticles` articles per call (each in its own
 * transaction); returns how many revisions went.
 */
export async function thinOldDraftRevisions(
  db: Db,
  before: Date,
  maxArticles = 500,
): Promise<{ articles: number; removed: number }> {
  const articleIds = await findArticlesWithOldDraftRevisions(db, before, maxArticles);
  let removed = 0;
  for (const articleId of articleIds) {
    removed += await db.transaction().execute(async (tx) => {
      // Writers of the article hold its row lock while they touch its revisions: so does this.
      if (!(await lockArticleById(tx, articleId))) return 0;
      const chain = await findAllRevisions(tx, articleId);
      const decided = withSnapshots(chain).map((revision, index) => ({
        ...revision,
        keep:
          index === 0 ||
          index === chain.length - 1 ||
          revision.row.status === 'published' ||
          revision.row.createdAt >= before,
      }));
      const dropped = decided.filter((revision) => !revision.keep).map((revision) => revision.row.n);
      if (dropped.length === 0) return 0;
      await deleteRevisions(tx, articleId, dropped);
      // Each kept revision's delta must now lead back from the next kept one (newest first).
      const kept = decided.filter((revision) => revision.keep);
      for (let index = 1; index < kept.length; index++) {
        const newer = kept[index - 1];
        const older = kept[index];
        if (!newer || !older) continue;
        if (decided[decided.indexOf(older) - 1] === newer) continue; // its neighbour is unchanged
        await updateRevisionData(tx, articleId, older.row.n, {
          kind: 'delta',
          dataJson: JSON.stringify(reverseDelta(newer.snapshot, older.snapshot)),
        });
      }
      return dropped.length;
    });
  }
  return { articles: articleIds.length, removed };
}

/** Each row of a chain read newest first, with its whole snapshot. */
function withSnapshots(chain: readonly RevisionRow[]): { row: RevisionRow; snapshot: ArticleSnapshot }[] {
  let snapshot: ArticleSnapshot = {};
  return chain.map((row) => {
    snapshot =
      row.kind === 'snapshot'
        ? (row.data as ArticleSnapshot)
        : applyDelta(snapshot, row.data as SnapshotDelta);
    return { row, snapshot };
  });
}
