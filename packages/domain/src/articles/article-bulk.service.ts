import type { Db } from '../db/create-db';
import type { ArticleStatus } from '../db/tables';
import { DomainError } from '../errors';
import { changeArticleStatus, deleteArticle, normaliseReviewReason } from './article.service';
import type { ArticleAction } from './article-lifecycle';
import { type RevisionWrite, systemWrite, withSource } from './revisions/revision-write';

/** What one bulk request does to each of its articles: a lifecycle action, or deletion. */
export type BulkArticleAction = ArticleAction | 'delete';

/** The outcome for one article of a bulk request. */
export type BulkArticleResult =
  | { id: string; ok: true; status?: ArticleStatus }
  | { id: string; ok: false; error: { code: string; message: string } };

/**
 * Applies `action` to each article in turn, in the order given. Each item is its own compare-and-set
 * (the same as the single-article route), so one item's refusal (not found, invalid transition) is
 * reported in its result and the others go on. Anything that is not a domain error (the database going
 * away) stops the batch and is thrown: items before it stay done. Each item's revision is recorded with
 * source 'bulk' (a deletion has none: the article's revisions go with it).
 */
export async function applyBulkArticleAction(
  db: Db,
  action: BulkArticleAction,
  ids: readonly string[],
  reviewReason: string | null = null,
  write: RevisionWrite = systemWrite,
): Promise<BulkArticleResult[]> {
  const itemWrite = withSource(write, 'bulk');
  // Refused before any item is touched: it is the request that is wrong, not one of its articles.
  const reason = normaliseReviewReason(action, reviewReason);
  const results: BulkArticleResult[] = [];
  for (const id of ids) {
    try {
      if (action === 'delete') {
        await deleteArticle(db, id);
        results.push({ id, ok: true });
      } else {
        const article = await changeArticleStatus(db, id, action, new Date(), reason, itemWrite);
        results.push({ id, ok: true, status: article.status });
      }
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      results.push({ id, ok: false, error: { code: error.code, message: error.message } });
    }
  }
  return results;
}
