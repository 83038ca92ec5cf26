import { sql } from 'kysely';
import type { DbOrTx } from '../db/create-db';
import { executePrepared } from '../db/prepared-statements';
import type { PublishedArticleRow } from '../published/published-article';
import { publishedArticleColumns } from '../published/published-article-columns';
import type { PreviewLink } from './preview-link';

// Preview links: insert, list the live ones of an article, revoke, and the one read a preview makes (by digest).

const linkColumns = [
  'id',
  'article_id',
  'token_prefix',
  'created_by',
  'created_at',
  'expires_at',
  'revoked_at',
  sql<boolean>`pinned_article is not null`.as('pinned'),
] as const;

interface LinkRow {
  id: string;
  article_id: string;
  token_prefix: string;
  created_by: string | null;
  created_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
  pinned: boolean;
}

function toPreviewLink(row: LinkRow): PreviewLink {
  return {
    id: row.id,
    articleId: row.article_id,
    prefix: row.token_prefix,
    pinned: row.pinned,
    createdBy: row.created_by,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
  };
}

export async function insertPreviewLink(
  db: DbOrTx,
  link: {
    articleId: string;
    hash: Buffer;
    prefix: string;
    createdBy: string | null;
    expiresAt: Date;
    pinnedArticle: string | null;
  },
): Promise<PreviewLink> {
  const row = await db
    .insertInto('article_preview_links')
    .values({
      article_id: link.articleId,
      token_hash: link.hash,
      token_prefix: link.prefix,
      created_by: link.createdBy,
      expires_at: link.expiresAt,
      pinned_article: link.pinnedArticle,
    })
    .returning(linkColumns)
    .executeTakeFirstOrThrow();
  return toPreviewLink(row as LinkRow);
}

/** The article's links that still open (not revoked, not expired by the database's clock), newest first. */
export async function findActivePreviewLinks(db: DbOrTx, articleId: string): Promise<PreviewLink[]> {
  const rows = await db
    .selectFrom('article_preview_links')
    .select(linkColumns)
    .where('article_id', '=', articleId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map((row) => toPreviewLink(row as LinkRow));
}

/** Revokes one link of the article; false when the article has no such link. Revoking twice is harmless. */
export async function revokePreviewLinkById(db: DbOrTx, articleId: string, linkId: string): Promise<boolean> {
  const result = await db
    .updateTable('article_preview_links')
    .set({ revoked_at: sql<Date>`coalesce(revoked_at, now())` })
    .where('id', '=', linkId)
    .where('article_id', '=', articleId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** What a live preview token opens: the pinned article (JSON), or the article's row as it is now. */
export type PreviewRow = PublishedArticleRow & { pinned_article: unknown | null };

/**
 * The article a token's digest opens, if the link is neither revoked nor expired (the database's clock, so every
 * replica agrees): one probe of the unique index on token_hash, whatever the article's status.
 */
export async function findPreviewByTokenHash(db: DbOrTx, hash: Buffer): Promise<PreviewRow | undefined> {
  const query = db
    .selectFrom('article_preview_links')
    .innerJoin('articles', 'articles.id', 'article_preview_links.article_id')
    .select([...publishedArticleColumns, 'article_preview_links.pinned_article'])
    .where('article_preview_links.token_hash', '=', hash)
    .where('article_preview_links.revoked_at', 'is', null)
    .where('article_preview_links.expires_at', '>', sql<Date>`now()`);
  const [row] = await executePrepared(db, query);
  return row as PreviewRow | undefined;
}

/** One article's client columns, whatever its status (what a pinned link freezes). */
export async function findArticleForPreview(
  db: DbOrTx,
  articleId: string,
): Promise<PublishedArticleRow | undefined> {
  const row = await db
    .selectFrom('articles')
    .select(publishedArticleColumns)
    .where('articles.id', '=', articleId)
    .executeTakeFirst();
  return row as PublishedArticleRow | undefined;
}
