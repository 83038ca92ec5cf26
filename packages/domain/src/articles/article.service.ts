import { excerptFromHtml } from '@newsroom/html';
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
import { type ArticleEdit, editedFieldColumns, newArticleFieldColumns } from './article-content-columns';
import { announceCorrection } from './article-correction.service';
import {
  type ArticleAction,
  initialStatus,
  type LifecycleState,
  nextStatus,
  type ReviewDecision,
  reviewDecisions,
} from './article-lifecycle';
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
      ...(await newArticleFieldColumns(tx, content)),
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
  patch: ArticleEdit,
  expectedVersions?: readonly string[],
  now: Date = new Date(),
): Promise<VersionedArticle> {
  if (patch.slug !== undefined && !isValidSlug(patch.slug)) {
    throw new DomainValidationError(
      'INVALID_SLUG',
      `Slug ${patch.slug} is not lower-case words joined by dashes`,
    );
  }
  const { thumbnailMeta, imageMeta, bylines, standfirst, correction, ...plain } = patch;
  return db.transaction().execute(async (tx) => {
    try {
      // The unique index is the judge of a taken slug: no read-then-write race, and an unknown id stays a 404.
      const columns = {
        ...plain,
        ...(plain.tags !== undefined && { tags: normaliseTags(plain.tags) }),
        // A new body gets a new excerpt (its first paragraph), imported or not: a feed summary may no longer fit.
        ...(plain.body !== undefined && { excerpt: excerptFromHtml(plain.body) }),
        ...(await editedFieldColumns(tx, patch, () => getArticle(tx, id), now)),
      };
      const written = await updateArticleColumns(tx, id, columns, expectedVersions);
      if (!written) {
        if (expectedVersions !== undefined && (await articleExists(tx, id))) {
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
    if (correction) await announceCorrection(tx, id, now);
    return getArticle(tx, id);
  });
}

/**
 * Applies a lifecycle action, or throws InvalidTransitionError. `reason` (approve and reject only) is stored
 * with the decision for the publisher to see; any later transition clears it.
 */
export async function changeArticleStatus(
  db: Db,
  id: string,
  action: ArticleAction,
  now: Date = new Date(),
  reviewReason: string | null = null,
): Promise<VersionedArticle> {
  const reason = normaliseReviewReason(action, reviewReason);
  const article = await getArticle(db, id);
  const from = lifecycleStateOf(article);
  const to = nextStatus(from, action);
  const changed = await updateArticleStatus(db, id, {
    from: from.status,
    to,
    publishedAt: to === 'published' ? now : null,
    // Only a published article needs the check: a rejected one was always decided by a review.
    fromReviewed: action === 'back-to-pending' && from.status === 'published',
    review: isReviewDecision(action) ? { at: now, reason } : null,
  });
  if (!changed) {
    // Someone else moved it first; judge the action against the state it has now.
    nextStatus(lifecycleStateOf(await getArticle(db, id)), action);
    return changeArticleStatus(db, id, action, now, reason);
  }
  return getArticle(db, id);
}

function lifecycleStateOf(article: VersionedArticle): LifecycleState {
  return { status: article.status, reviewed: article.reviewedAt !== null };
}

function isReviewDecision(action: string): action is ReviewDecision {
  return (reviewDecisions as readonly string[]).includes(action);
}

/** At most this many characters of reason go with a review decision (the column's check says the same). */
export const maxReviewReasonLength = 500;

/**
 * A decision's reason trimmed (blank is none); a reason with another action, or too long, is a
 * DomainValidationError (400 INVALID_REVIEW_REASON).
 */
export function normaliseReviewReason(
  action: ArticleAction | 'delete',
  reason: string | null | undefined,
): string | null {
  const trimmed = reason?.trim() ?? '';
  if (trimmed === '') return null;
  if (!isReviewDecision(action)) {
    throw new DomainValidationError(
      'INVALID_REVIEW_REASON',
      `A reason goes only with approve or reject, not ${action}`,
    );
  }
  if (trimmed.length > maxReviewReasonLength) {
    throw new DomainValidationError(
      'INVALID_REVIEW_REASON',
      `The reason is longer than ${maxReviewReasonLength} characters`,
    );
  }
  return trimmed;
}

export async function deleteArticle(db: DbOrTx, id: string): Promise<void> {
  if (!(await deleteArticleById(db, id))) throw new NotFoundError('article', id);
}
