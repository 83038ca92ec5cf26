import { excerptFromHtml } from '@newsroom/html';
import type { Db, DbOrTx, Tx } from '../db/create-db';
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
  updateArticleStatus,
} from './article.repository';
import { type ArticleEdit, editedFieldColumns, newArticleFieldColumns } from './article-content-columns';
import { updateArticleContent } from './article-edit.repository';
import {
  type ArticleAction,
  initialStatus,
  type LifecycleState,
  nextStatus,
  type ReviewDecision,
  reviewDecisions,
} from './article-lifecycle';
import { lockArticleById } from './article-lock.repository';
import { assertNotEmbargoed } from './embargo';
import { recordArticleRevision } from './revisions/revision-recorder';
import { type RevisionWrite, systemWrite } from './revisions/revision-write';
import { isValidSlug, nextFreeSlug, slugBase } from './slug';
import { normaliseTags } from './tags';

const slugKey = 'articles_slug_key';

/**
 * Creates a manual article as a draft, with a unique slug generated from its title,
 * optionally already linked to host sites (by slug; an unknown one is a DomainValidationError).
 * Records revision 1 (`write`: who and from where) in the same transaction.
 */
export async function createArticle(
  db: Db,
  content: ArticleContent,
  hostSites: readonly string[] = [],
  write: RevisionWrite = systemWrite,
  createdBy: string | null = null,
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
      created_by: createdBy,
    });
    if (siteIds.length > 0) await replaceArticleSites(tx, article.id, siteIds);
    return recordArticleRevision(tx, article.id, write);
  });
}

export async function getArticle(db: DbOrTx, id: string): Promise<VersionedArticle> {
  const article = await findArticleById(db, id);
  if (!article) throw new NotFoundError('article', id);
  return article;
}

/**
 * What `PUT /article/:id` may write: content fields and the slug, and (issue 32) a correction note on a
 * published article.
 */
export type ArticlePatch = ArticleEdit;

/**
 * Edits content fields; the status never changes and the slug stays as it was
 * (links keep working) unless a new one is given explicitly.
 * With `expectedVersions`, the edit is a compare-and-set: it is written only while the article is still at
 * one of those versions, else nothing is written and VersionMismatchError (ARTICLE_CHANGED) is thrown.
 * Records a revision (`write`) with the write: the update and its revision are one statement
 * (article-edit.repository.ts), in the caller's transaction when `db` is one, else alone.
 */
export async function editArticle(
  db: DbOrTx,
  id: string,
  patch: ArticlePatch,
  expectedVersions?: readonly string[],
  write: RevisionWrite = systemWrite,
): Promise<VersionedArticle> {
  return writeArticlePatch(db, id, patch, expectedVersions, write);
}

/**
 * The write of `PUT /article/:id`, its revision (`write`) recorded by the same statement, or none (null: a
 * restore writes through it in its transaction, then records one revision for the fields and host sites
 * together). A correction note is appended (issue 32); its `article.corrected` event is written by the caller in
 * the same transaction (`corrections/`).
 */
export async function writeArticlePatch(
  db: DbOrTx,
  id: string,
  patch: ArticlePatch,
  expectedVersions: readonly string[] | undefined,
  write: RevisionWrite | null,
  now: Date = new Date(),
): Promise<VersionedArticle> {
  if (patch.slug !== undefined && !isValidSlug(patch.slug)) {
    throw new DomainValidationError(
      'INVALID_SLUG',
      `Slug ${patch.slug} is not lower-case words joined by dashes`,
    );
  }
  // Issue 32's fields become their columns in editedFieldColumns; the rest are columns already.
  const { thumbnailMeta: _t, imageMeta: _i, bylines: _b, standfirst: _s, correction: _c, ...plain } = patch;
  try {
    // The unique index is the judge of a taken slug: no read-then-write race, and an unknown id stays a 404.
    const columns = {
      ...plain,
      ...(plain.tags !== undefined && { tags: normaliseTags(plain.tags) }),
      // A new body gets a new excerpt (its first paragraph), imported or not: a feed summary may no longer fit.
      ...(plain.body !== undefined && { excerpt: excerptFromHtml(plain.body) }),
      ...(await editedFieldColumns(db, patch, () => getArticle(db, id), now)),
    };
    const revision = write && { write, at: now };
    const written = await updateArticleContent(db, id, columns, expectedVersions, revision);
    if (!written) {
      if (expectedVersions !== undefined && (await articleExists(db, id))) {
        throw new VersionMismatchError('article', id);
      }
      throw new NotFoundError('article', id);
    }
    return written;
  } catch (error) {
    if (isUniqueViolation(error, slugKey)) {
      throw new ConflictError('SLUG_TAKEN', `Slug ${patch.slug} is already used by another article`);
    }
    throw error;
  }
}

/** Runs `work` in a new transaction. */
function inTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  // The caller's transaction when `db` already is one (the scheduler runs a batch of actions in one).
  return db.isTransaction ? work(db as Tx) : db.transaction().execute(work);
}

/**
 * Applies a lifecycle action, or throws InvalidTransitionError. `reason` (approve and reject only) is stored
 * with the decision for the publisher to see; any later transition clears it. The article row is locked
 * first, so the action is judged against the state it is written over; the revision (`write`) goes in the
 * same transaction.
 */
export async function changeArticleStatus(
  db: Db,
  id: string,
  action: ArticleAction,
  now: Date = new Date(),
  reviewReason: string | null = null,
  /** The revision's write; null when the caller records one revision for a larger write (the embargo). */
  write: RevisionWrite | null = systemWrite,
  /** Who acts: recorded as the submitter by `submit`. */
  actorId: string | null = null,
): Promise<VersionedArticle> {
  const reason = normaliseReviewReason(action, reviewReason);
  return inTransaction(db, async (tx) => {
    if (!(await lockArticleById(tx, id))) throw new NotFoundError('article', id);
    const article = await getArticle(tx, id);
    const from = lifecycleStateOf(article);
    const to = nextStatus(from, action);
    if (to === 'published') assertNotEmbargoed(article, now);
    await updateArticleStatus(tx, id, {
      from: from.status,
      to,
      publishedAt: to === 'published' ? now : null,
      // Only a published article needs the check: a rejected one was always decided by a review.
      fromReviewed: action === 'back-to-pending' && from.status === 'published',
      review: isReviewDecision(action) ? { at: now, reason } : null,
      ...(action === 'submit' && { submittedBy: actorId }),
    });
    if (write === null) return getArticle(tx, id);
    return recordArticleRevision(tx, id, { ...write, reason: write.reason ?? reason }, now);
  });
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
