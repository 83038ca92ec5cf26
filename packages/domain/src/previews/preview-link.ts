import { createHash, randomBytes } from 'node:crypto';
import type { PublishedArticle } from '../published/published-article';

/** A preview link as editors see it: never the token (shown once, at creation), only a recognisable prefix. */
export interface PreviewLink {
  id: string;
  articleId: string;
  /** The first characters of the token, to tell links apart in lists. */
  prefix: string;
  /** Whether the link shows the article frozen at creation (true) or its current saved state (false). */
  pinned: boolean;
  createdBy: string | null;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
}

export const previewTokenPrefix = 'npv_';
const prefixLength = previewTokenPrefix.length + 6;

/** Default lifetime of a preview link, and the longest one may be asked for. */
export const previewLinkDefaultHours = 7 * 24;
export const previewLinkMaxHours = 30 * 24;

/** sha256 of a presented token: what is stored and looked up; the token itself never is. */
export function digestPreviewToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** Whether `token` has the shape of a preview token (anything else is refused without a database lookup). */
export function looksLikePreviewToken(token: string): boolean {
  return /^npv_[A-Za-z0-9_-]{43}$/.test(token);
}

/** A new random preview token (256 bits), with the digest and prefix to store. */
export function generatePreviewToken(): { token: string; hash: Buffer; prefix: string } {
  const token = `${previewTokenPrefix}${randomBytes(32).toString('base64url')}`;
  return { token, hash: digestPreviewToken(token), prefix: token.slice(0, prefixLength) };
}

/** A pinned article as stored (JSON: its dates as ISO strings) back to the article the writer takes. */
export function pinnedArticleOf(json: unknown): PublishedArticle {
  const stored = json as Record<string, unknown>;
  const dateOf = (value: unknown) => (typeof value === 'string' ? new Date(value) : null);
  return {
    ...(stored as unknown as PublishedArticle),
    sourcePublishedAt: dateOf(stored.sourcePublishedAt),
    publishedAt: dateOf(stored.publishedAt) as Date,
    updatedAt: dateOf(stored.updatedAt) as Date,
  };
}
