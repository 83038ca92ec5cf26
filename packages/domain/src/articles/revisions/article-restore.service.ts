import type { Db } from '../../db/create-db';
import { NotFoundError } from '../../errors';
import { findSitesBySlugs } from '../../sites/site.repository';
import type { VersionedArticle } from '../article';
import { replaceArticleSites } from '../article.repository';
import { type ArticlePatch, getArticle, writeArticlePatch } from '../article.service';
import { lockArticleById } from '../article-lock.repository';
import { getArticleRevision } from './article-revision.service';
import { restorableFields } from './article-snapshot';
import { recordNumberedRevision } from './revision-recorder';
import type { RevisionWrite } from './revision-write';

export interface RestoredArticle {
  article: VersionedArticle;
  /** The revision whose content was restored. */
  restoredFrom: number;
  /** The new revision the restore recorded. */
  revision: number;
  /** Host sites of that revision that no longer exist (left out). */
  missingHostSites: string[];
}

/**
 * Writes revision `n`'s content back as the article's new content, recorded as a new revision (source
 * 'restore'): every field `PUT /article/:id` writes, through the same update, and the host sites through
 * the same replacement as the host-site route. The status never changes: a published article stays
 * published, with the restored text. With `expectedVersions` it is a compare-and-set, as PUT.
 */
export async function restoreArticleRevision(
  db: Db,
  articleId: string,
  n: number,
  expectedVersions: readonly string[] | undefined,
  write: RevisionWrite,
): Promise<RestoredArticle> {
  return db.transaction().execute(async (tx) => {
    if (!(await lockArticleById(tx, articleId))) throw new NotFoundError('article', articleId);
    const { snapshot } = await getArticleRevision(tx, articleId, n);
    const current = await getArticle(tx, articleId);
    const { fields, hostSites } = restorableFields(snapshot);
    // A field the article no longer has cannot be written; the slug is written only when it differs.
    const patch = Object.fromEntries(
      Object.entries(fields).filter(
        ([key, value]) => key in current && !(key === 'slug' && value === current.slug),
      ),
    ) as ArticlePatch;
    // Its revision is recorded after the host sites, with a read of its own.
    await writeArticlePatch(tx, articleId, patch, expectedVersions, null);
    const sites = await findSitesBySlugs(tx, [...new Set(hostSites)]);
    await replaceArticleSites(
      tx,
      articleId,
      sites.map((site) => site.id),
    );
    const { article, n: revision } = await recordNumberedRevision(tx, articleId, {
      ...write,
      source: 'restore',
    });
    const found = new Set(sites.map((site) => site.slug));
    return {
      article,
      restoredFrom: n,
      revision,
      missingHostSites: hostSites.filter((slug) => !found.has(slug)),
    };
  });
}
