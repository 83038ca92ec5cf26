import type { Tx } from '../db/create-db';
import { findPublishedArticlesByIds } from '../published/published-article.repository';
import { insertArticleCorrectedDeliveries } from '../webhooks/article-corrected.repository';
import { articleCorrectedEvent } from '../webhooks/webhook-event';

/**
 * The `article.corrected` webhook event of a correction just appended in `tx` (editArticle): the article as
 * child sites now see it, for every endpoint subscribed to the event that sees the article. The edit's update
 * of the row already wrote the change-feed upsert (the outbox trigger), in the same transaction.
 */
export async function announceCorrection(tx: Tx, articleId: string, at: Date): Promise<void> {
  const [found] = await findPublishedArticlesByIds(tx, [articleId]);
  if (!found) return;
  await insertArticleCorrectedDeliveries(tx, articleCorrectedEvent(found.article, at), articleId);
}
