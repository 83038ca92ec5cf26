import type { Db, DbOrTx } from '../db/create-db';
import { isUniqueViolation } from '../db/pg-errors';
import { ConflictError, DomainValidationError, NotFoundError, VersionMismatchError } from '../errors';
import { resolveSiteIds } from '../sites/site.repository';
import type { ArticleContent, VersionedArticle } from './article';
import {
  articleExists,
  deleteArticleById,
  findArticleById,
  insertArticle,
  lockAndFindTakenSlugs,
  replaceArticleSites,
  updateArticleColumns,
  updateArticleStatus,
} from './article.repository';
import { type ArticleAction, initialStatus, nextStatus } from './article-lifecycle';
import { excerptFromHtml } from './excerpt';
import { isValidSlug, nextFreeSlug, slugBase } from './slug';
import { normaliseTags } from './tags';

const slugKey = 'articles_slug_key';

/**
 * Creates a manual article as a draft, with a unique slug generated from its title,
 * optionally already linked to host sites (by slug; an unknown one is a DomainValidationError).
 */
export async function createArticle(
  db: Db,
  content: ArticleContent,
  hostSites: readonly string[] = [],
): Promise<VersionedArticle> {
  const base = slugBase(content.title);
  return db.transaction().execute(async (tx) => {
    const siteIds = await resolveSiteIds(tx, hostSites);
    const slug = nextFreeSlug(base, await lockAndFindTakenSlugs(tx, [base]));
    const article = await insertArticle(tx, {
      title: content.title,
      slug,
      body: content.body,
      excerpt: excerptFromHtml(content.body),
      tags: normaliseTags(content.tags),
      category: content.category,
      section: content.section,
      thumbnail: content.thumbnail,
      image: content.image,
      status: initialStatus({ kind: 'manual' }),
    });
    if (siteIds.length === 0) return article;
    await replaceArticleSites(tx, article.id, siteIds);
    return (await findArticleById(tx, article.id)) as VersionedArticle;
  });
}

export async function getArticle(db: DbOrTx, id: string): Promise<VersionedArticle> {
  const article = await findArticleById(db, id);
  if (!article) throw new NotFoundError('article', id);
  return article;
}

/**
 * Edits content fields; the status never changes and the slug stays as it was
 * (links keep working) unless a new one is given explicitly.
 * With `expectedVersions`, the edit is a compare-and-set: it is written only while the article is still at
 * one of those versions, else nothing is written and VersionMismatchError (ARTICLE_CHANGED) is thrown.
 */
export async function editArticle(
  db: Db,
  id: string,
  patch: Partial<ArticleContent> & { slug?: string },
  expectedVersions?: readonly string[],
): Promise<VersionedArticle> {
  if (patch.slug !== undefined && !isValidSlug(patch.slug)) {
    throw new DomainValidationError(
      'INVALID_SLUG',
      `Slug ${patch.slug} is not lower-case words joined by dashes`,
    );
  }
  try {
    // The unique index is the judge of a taken slug: no read-then-write race, and an unknown id stays a 404.
    const columns = {
      ...patch,
      ...(patch.tags !== undefined && { tags: normaliseTags(patch.tags) }),
      // A new body gets a new excerpt (its first paragraph), imported or not: a feed summary may no longer fit.
      ...(patch.body !== undefined && { excerpt: excerptFromHtml(patch.body) }),
    };
    const written = await updateArticleColumns(db, id, columns, expectedVersions);
    if (!written) {
      if (expectedVersions !== undefined && (await articleExists(db, id))) {
        throw new VersionMismatchError('article', id);
      }
      throw new NotFoundError('article', id);
    }
  } catch (error) {
    if (isUniqueViolation(error, slugKey)) {
      throw new ConflictError('SLUG_TAKEN', `Slug ${patch.slug} is already used by another article`);
    }
    throw error;
  }
  return getArticle(db, id);
}

/** Applies a lifecycle action (publish, unpublish, approve, reject), or throws InvalidTransitionError. */
export async function changeArticleStatus(
  db: Db,
  id: string,
  action: ArticleAction,
  now: Date = new Date(),
): Promise<VersionedArticle> {
  const article = await getArticle(db, id);
  const to = nextStatus(article.status, action);
  const publishedAt = to === 'published' ? now : null;
  const changed = await updateArticleStatus(db, id, { from: article.status, to, publishedAt });
  if (!changed) {
    // Someone else moved it first; judge the action against the status it has now.
    const current = await getArticle(db, id);
    nextStatus(current.status, action);
    return changeArticleStatus(db, id, action, now);
  }
  return getArticle(db, id);
}

export async function deleteArticle(db: DbOrTx, id: string): Promise<void> {
  if (!(await deleteArticleById(db, id))) throw new NotFoundError('article', id);
}
