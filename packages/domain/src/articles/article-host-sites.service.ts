import type { Db } from '../db/create-db';
import { NotFoundError } from '../errors';
import { resolveSiteIds } from '../sites/site.repository';
import type { VersionedArticle } from './article';
import { replaceArticleSites } from './article.repository';
import { lockArticleById } from './article-lock.repository';
import { recordArticleRevision } from './revisions/revision-recorder';
import { type RevisionWrite, systemWrite } from './revisions/revision-write';

/**
 * Sets the article's host sites to exactly the sites named by `siteSlugs` (an empty list detaches it
 * from every site). Any status: a published article moves between sites at once.
 * Throws NotFoundError, or DomainValidationError UNKNOWN_SITE naming the unknown slugs.
 * Records a revision (`write`) in the same transaction.
 */
export async function setArticleHostSites(
  db: Db,
  id: string,
  siteSlugs: readonly string[],
  write: RevisionWrite = systemWrite,
): Promise<VersionedArticle> {
  return db.transaction().execute(async (tx) => {
    if (!(await lockArticleById(tx, id))) throw new NotFoundError('article', id);
    await replaceArticleSites(tx, id, await resolveSiteIds(tx, siteSlugs));
    return recordArticleRevision(tx, id, write);
  });
}
