import type { DbOrTx } from '../db/create-db';
import { findArticleIdBySlug } from './article.repository';
import { isValidSlug } from './slug';

export interface SlugCheck {
  slug: string;
  /** The slug has the required shape (lower-case ASCII words joined by single dashes, at most 120 characters). */
  valid: boolean;
  /** Valid and not used by any article other than `exceptId`: an edit setting it would succeed now. */
  available: boolean;
}

/** Whether an editor may set `slug` on the article `exceptId` (or on a new one). Advisory: the unique index decides on write. */
export async function checkArticleSlug(db: DbOrTx, slug: string, exceptId?: string): Promise<SlugCheck> {
  if (!isValidSlug(slug)) return { slug, valid: false, available: false };
  const ownerId = await findArticleIdBySlug(db, slug);
  return { slug, valid: true, available: ownerId === undefined || ownerId === exceptId };
}
