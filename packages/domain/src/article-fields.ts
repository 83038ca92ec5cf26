import { DomainValidationError } from './errors';

/**
 * A byline: who wrote the story, in the order the article names them. `name` is stored as given (a
 * snapshot), so the byline stays renderable whatever happens to the staff user it may reference (`userId`).
 */
export interface Byline {
  name: string;
  /** A public profile or home page (absolute http(s)), or null. */
  url: string | null;
  /** The staff user this byline stands for, or null (contributors, agencies, imported authors). */
  userId: string | null;
}

/** A point of an image, as fractions of its width (x) and height (y) from the top-left corner. */
export interface FocalPoint {
  x: number;
  y: number;
}

/** What is known about a picture beside its URL (kept in `thumbnail` and `image`). */
export interface ImageMeta {
  /** Text alternative for readers who cannot see it; required when an editor sets the image. */
  alt: string | null;
  caption: string | null;
  credit: string | null;
  width: number | null;
  height: number | null;
  /** Where crops centre (imgproxy renditions); null: the centre. */
  focalPoint: FocalPoint | null;
}

/** One published correction: appended, never edited. */
export interface Correction {
  text: string;
  at: Date;
  /** The staff user who added it (null for corrections added without a signed-in user, e.g. scripts). */
  by: { userId: string; name: string } | null;
}

export const articleFieldLimits = {
  bylines: 20,
  bylineName: 200,
  url: 2048,
  standfirst: 500,
  alt: 1000,
  caption: 1000,
  credit: 300,
  dimension: 100_000,
  correctionText: 2000,
  corrections: 100,
} as const;

/** The image fields an article has, by the name of their URL field. */
export const articleImageFields = ['thumbnail', 'image'] as const;
export type ArticleImageField = (typeof articleImageFields)[number];

/** The jsonb document of an image's metadata as stored (camelCase keys; the API's own shape). */
export type StoredImageMeta = ImageMeta;
/** A correction as stored in the `corrections` jsonb array (the date as ISO 8601 text). */
export interface StoredCorrection {
  text: string;
  at: string;
  by: { userId: string; name: string } | null;
}

/** Trims; blank is null. */
export function cleanText(value: string | null | undefined): string | null {
  const trimmed = value?.replace(/\s+/g, ' ').trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

/** Bylines trimmed, blank names dropped, the same name twice (case-insensitively) kept once. */
export function normaliseBylines(
  bylines: readonly { name: string; url?: string | null; userId?: string | null }[],
): Byline[] {
  const seen = new Set<string>();
  const result: Byline[] = [];
  for (const byline of bylines) {
    const name = cleanText(byline.name);
    if (!name) continue;
    const key = name.toLocaleLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    result.push({ name, url: cleanText(byline.url), userId: byline.userId ?? null });
  }
  return result;
}

/** Image metadata with its text trimmed (blank: null); null when nothing at all is known. */
export function normaliseImageMeta(meta: Partial<ImageMeta> | null | undefined): ImageMeta | null {
  if (!meta) return null;
  const result: ImageMeta = {
    alt: cleanText(meta.alt),
    caption: cleanText(meta.caption),
    credit: cleanText(meta.credit),
    width: meta.width ?? null,
    height: meta.height ?? null,
    focalPoint: meta.focalPoint ?? null,
  };
  return Object.values(result).every((value) => value === null) ? null : result;
}

/**
 * The rule the schema cannot say: an image an editor sets has alt text. `field` names the URL field
 * (`image`, `thumbnail`); a missing alt is a DomainValidationError naming `<field>Meta.alt`.
 */
export function requireAltText(field: ArticleImageField, url: string | null, meta: ImageMeta | null): void {
  if (url !== null && !meta?.alt) {
    throw new DomainValidationError(
      'IMAGE_ALT_REQUIRED',
      `${field}Meta.alt is required when ${field} is set: describe the picture for readers who cannot see it`,
    );
  }
}

/** Whether the article shows a picture without alt text (imported ones may): flagged for review. */
export function lacksAltText(article: {
  thumbnail: string | null;
  image: string | null;
  thumbnailMeta: ImageMeta | null;
  imageMeta: ImageMeta | null;
}): boolean {
  return (
    (article.thumbnail !== null && !article.thumbnailMeta?.alt) ||
    (article.image !== null && !article.imageMeta?.alt)
  );
}

export function toCorrections(stored: readonly StoredCorrection[] | null): Correction[] {
  return (stored ?? []).map((c) => ({ text: c.text, at: new Date(c.at), by: c.by ?? null }));
}

export function toBylines(stored: readonly Partial<Byline>[] | null): Byline[] {
  return (stored ?? []).map((b) => ({ name: b.name ?? '', url: b.url ?? null, userId: b.userId ?? null }));
}
