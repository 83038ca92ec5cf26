import type { Db } from '../db/create-db';
import { NotFoundError } from '../errors';
import { resolveSiteIds } from '../sites/site.repository';
import type { VersionedArticle } from './article';
import { findArticleById, replaceArticleSites } from './article.repository';
import { lockArticleById } from './article-lock.repository';

/**
 * Sets the article's host sites to exactly the sites named by `siteSlugs` (an empty list detaches it
 * from every site). Any status: a published article moves between sites at once.
 * Throws NotFoundError, or DomainValidationError UNKNOWN_SITE naming the unknown slugs.
 */
export async function setArticleHostSites(
  db: Db,
  id: string,
  siteSlugs: readonly string[],
): Promise<VersionedArticle> {
  return db.transaction().execute(async (tx) => {
    if (!(await lockArticleById(tx, id))) throw new NotFoundError('article', id);
    await replaceArticleSites(tx, id, await resolveSiteIds(tx, siteSlugs));
    return (await findArticleById(tx, id)) as VersionedArticle;
  });
}
