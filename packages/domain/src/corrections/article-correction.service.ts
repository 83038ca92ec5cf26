import type { VersionedArticle } from '../articles/article';
import type { ArticlePatch } from '../articles/article.service';
import { editArticle } from '../articles/article.service';
import type { RevisionWrite } from '../articles/revisions/revision-write';
import type { Db, Tx } from '../db/create-db';
import type { ImgproxySettings } from '../images/imgproxy-renditions';
import { findPublishedArticlesByIds } from '../published/published-article.repository';
import { withRenditions } from '../published/published-renditions';
import { insertArticleCorrectedDeliveries } from '../webhooks/article-corrected.repository';
import { articleCorrectedEvent } from '../webhooks/webhook-event';

/**
 * `PUT /article/:id`: the edit (`editArticle`, with its revision) and, when it carries a correction note, the
 * `article.corrected` webhook event, in one transaction. The edit's update of the row already wrote the
 * change-feed upsert (the outbox trigger). It stands above articles/ and webhooks/ so neither imports the other.
 */
export async function editArticleAnnouncingCorrection(
  db: Db,
  id: string,
  patch: ArticlePatch,
  expectedVersions: readonly string[] | undefined,
  write: RevisionWrite,
  imgproxy?: ImgproxySettings,
): Promise<VersionedArticle> {
  if (!patch.correction) return editArticle(db, id, patch, expectedVersions, write);
  return db.transaction().execute(async (tx) => {
    const article = await editArticle(tx, id, patch, expectedVersions, write);
    const appended = article.corrections.at(-1);
    if (appended) await announceCorrection(tx, id, appended.at, imgproxy);
    return article;
  });
}

/**
 * The `article.corrected` event of a correction just appended in `tx`, for every endpoint that sees the
 * article (as the client API answers it, renditions included when imgproxy is set).
 */
async function announceCorrection(
  tx: Tx,
  articleId: string,
  at: Date,
  imgproxy: ImgproxySettings | undefined,
): Promise<void> {
  const [found] = await findPublishedArticlesByIds(tx, [articleId]);
  if (!found) return;
  const event = articleCorrectedEvent(withRenditions(found.article, imgproxy), at);
  await insertArticleCorrectedDeliveries(tx, event, articleId);
}
