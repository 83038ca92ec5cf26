import { sql } from 'kysely';
import {
  articleFieldLimits,
  cleanText,
  type ImageMeta,
  normaliseBylines,
  normaliseImageMeta,
  requireAltText,
  type StoredCorrection,
} from '../article-fields';
import type { DbOrTx } from '../db/create-db';
import type { ArticleRowUpdate, NewArticleRow } from '../db/tables';
import { ConflictError, DomainValidationError } from '../errors';
import { findStaffUserIds } from '../users/byline-people.repository';
import type { ArticleContent, VersionedArticle } from './article';

/** A correction an editor adds while saving a published article. */
export interface CorrectionNote {
  text: string;
  /** The signed-in staff user (their e-mail stands as the name until users have display names). */
  by: { userId: string; name: string } | null;
}

/** An edit: any content fields, a new slug, and optionally a correction note. */
export type ArticleEdit = Partial<ArticleContent> & { slug?: string; correction?: CorrectionNote };

type FieldColumns = Pick<NewArticleRow, 'bylines' | 'standfirst' | 'thumbnail_meta' | 'image_meta'>;

/** The issue-32 columns of a new article, validated (alt text, staff users) and normalised. */
export async function newArticleFieldColumns(db: DbOrTx, content: ArticleContent): Promise<FieldColumns> {
  const thumbnailMeta = normaliseImageMeta(content.thumbnailMeta);
  const imageMeta = normaliseImageMeta(content.imageMeta);
  requireAltText('thumbnail', content.thumbnail, thumbnailMeta);
  requireAltText('image', content.image, imageMeta);
  const bylines = normaliseBylines(content.bylines ?? []);
  await requireStaffUsers(db, bylines);
  return {
    bylines: JSON.stringify(bylines),
    standfirst: cleanText(content.standfirst),
    thumbnail_meta: jsonOrNull(thumbnailMeta),
    image_meta: jsonOrNull(imageMeta),
  };
}

/**
 * The issue-32 columns an edit writes (only those it names), validated against the article as it is
 * (`current`, read only when the edit touches a picture or adds a correction): a picture set or kept by the
 * edit needs alt text; a correction goes only with a published article and is appended (with `at`).
 */
export async function editedFieldColumns(
  db: DbOrTx,
  patch: ArticleEdit,
  current: () => Promise<VersionedArticle>,
  at: Date,
): Promise<ArticleRowUpdate> {
  const columns: ArticleRowUpdate = {};
  if (patch.bylines !== undefined) {
    const bylines = normaliseBylines(patch.bylines);
    await requireStaffUsers(db, bylines);
    columns.bylines = JSON.stringify(bylines);
  }
  if (patch.standfirst !== undefined) columns.standfirst = cleanText(patch.standfirst);
  const touchesPictures = ['thumbnail', 'thumbnailMeta', 'image', 'imageMeta'].some(
    (key) => patch[key as keyof ArticleEdit] !== undefined,
  );
  const article = touchesPictures || patch.correction ? await current() : undefined;
  if (article && touchesPictures) {
    for (const field of ['thumbnail', 'image'] as const) {
      const metaKey = `${field}Meta` as const;
      if (patch[field] === undefined && patch[metaKey] === undefined) continue;
      const url = patch[field] !== undefined ? patch[field] : article[field];
      const meta: ImageMeta | null =
        patch[metaKey] !== undefined ? normaliseImageMeta(patch[metaKey]) : article[metaKey];
      requireAltText(field, url ?? null, meta);
      if (patch[metaKey] !== undefined) columns[`${field}_meta`] = jsonOrNull(meta);
    }
  }
  if (article && patch.correction) {
    if (article.status !== 'published') {
      throw new ConflictError(
        'ARTICLE_NOT_PUBLISHED',
        `A correction goes with an edit of a published article; this one is ${article.status}`,
      );
    }
    if (article.corrections.length >= articleFieldLimits.corrections) {
      throw new DomainValidationError(
        'TOO_MANY_CORRECTIONS',
        `An article keeps at most ${articleFieldLimits.corrections} corrections`,
      );
    }
    const text = cleanText(patch.correction.text);
    if (!text) throw new DomainValidationError('INVALID_CORRECTION', 'correction.text is blank');
    const note: StoredCorrection = { text, at: at.toISOString(), by: patch.correction.by };
    columns.corrections = sql<string>`corrections || ${JSON.stringify([note])}::jsonb`;
  }
  return columns;
}

function jsonOrNull(value: unknown): string | null {
  return value === null ? null : JSON.stringify(value);
}

/** A byline naming a staff user must name one that exists (a DomainValidationError naming the index). */
async function requireStaffUsers(db: DbOrTx, bylines: readonly { userId: string | null }[]): Promise<void> {
  const ids = [...new Set(bylines.map((b) => b.userId).filter((id): id is string => id !== null))];
  if (ids.length === 0) return;
  const known = await findStaffUserIds(db, ids);
  const index = bylines.findIndex((b) => b.userId !== null && !known.has(b.userId));
  if (index !== -1) {
    throw new DomainValidationError('UNKNOWN_BYLINE_USER', `bylines/${index}/userId names no staff user`);
  }
}
