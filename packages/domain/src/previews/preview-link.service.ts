import type { DbOrTx } from '../db/create-db';
import { DomainValidationError, NotFoundError } from '../errors';
import {
  type PublishedArticle,
  type PublishedArticleRow,
  toPublishedArticle,
} from '../published/published-article';
import {
  digestPreviewToken,
  generatePreviewToken,
  looksLikePreviewToken,
  type PreviewLink,
  pinnedArticleOf,
  previewLinkDefaultHours,
  previewLinkMaxHours,
} from './preview-link';
import {
  findActivePreviewLinks,
  findArticleForPreview,
  findPreviewByTokenHash,
  insertPreviewLink,
  revokePreviewLinkById,
} from './preview-link.repository';

const hourMs = 3_600_000;
/** An explicit expiry must leave the link at least this long to live (a link dead on arrival is a mistake). */
const minimumLifeMs = 60_000;

/** What an editor asks for: a lifetime (hours, or an instant; default 7 days) and whether to pin. */
export interface PreviewLinkRequest {
  createdBy: string | null;
  expiresInHours?: number;
  expiresAt?: Date;
  pinned?: boolean;
}

/**
 * The article as a preview shows it: the client article of its current saved state, whatever its status. A
 * never-published article has no publication date: it shows its last save (`updatedAt`) there, so a child site's
 * template gets the date it always gets.
 */
export function previewArticleOf(row: PublishedArticleRow): PublishedArticle {
  return { ...toPublishedArticle(row), publishedAt: row.published_at ?? row.updated_at };
}

function expiryOf(request: PreviewLinkRequest, now: Date): Date {
  if (request.expiresAt !== undefined && request.expiresInHours !== undefined) {
    throw new DomainValidationError('INVALID_PREVIEW_EXPIRY', 'Give expiresInHours or expiresAt, not both');
  }
  if (request.expiresAt === undefined) {
    return new Date(now.getTime() + (request.expiresInHours ?? previewLinkDefaultHours) * hourMs);
  }
  const life = request.expiresAt.getTime() - now.getTime();
  if (!(life >= minimumLifeMs && life <= previewLinkMaxHours * hourMs)) {
    throw new DomainValidationError(
      'INVALID_PREVIEW_EXPIRY',
      `expiresAt must be between one minute and ${previewLinkMaxHours / 24} days from now`,
    );
  }
  return request.expiresAt;
}

/**
 * Creates a preview link of the article. The token is returned here once and stored only as its sha256 digest.
 * A pinned link freezes the article as it is now (its client JSON); an unpinned one follows its saved state.
 */
export async function createPreviewLink(
  db: DbOrTx,
  articleId: string,
  request: PreviewLinkRequest,
  now: Date = new Date(),
): Promise<PreviewLink & { token: string }> {
  const expiresAt = expiryOf(request, now);
  const row = await findArticleForPreview(db, articleId);
  if (!row) throw new NotFoundError('article', articleId);
  const { token, hash, prefix } = generatePreviewToken();
  const link = await insertPreviewLink(db, {
    articleId,
    hash,
    prefix,
    createdBy: request.createdBy,
    expiresAt,
    pinnedArticle: request.pinned ? JSON.stringify(previewArticleOf(row)) : null,
  });
  return { ...link, token };
}

/** The article's links that still open, newest first (never their tokens). */
export async function listPreviewLinks(db: DbOrTx, articleId: string): Promise<PreviewLink[]> {
  if (!(await findArticleForPreview(db, articleId))) throw new NotFoundError('article', articleId);
  return findActivePreviewLinks(db, articleId);
}

/** Revokes the link: its token opens nothing from then on, on every replica (each read asks Postgres). */
export async function revokePreviewLink(db: DbOrTx, articleId: string, linkId: string): Promise<void> {
  if (!(await revokePreviewLinkById(db, articleId, linkId))) throw new NotFoundError('preview_link', linkId);
}

/**
 * The article a preview token opens, or undefined: unknown, malformed, expired and revoked tokens alike (so the
 * answer tells nothing about which). One indexed lookup by the token's digest; a token only ever opens the
 * article its link was made for.
 */
export async function findPreviewArticle(db: DbOrTx, token: string): Promise<PublishedArticle | undefined> {
  if (!looksLikePreviewToken(token)) return undefined;
  const row = await findPreviewByTokenHash(db, digestPreviewToken(token));
  if (!row) return undefined;
  return row.pinned_article !== null ? pinnedArticleOf(row.pinned_article) : previewArticleOf(row);
}
