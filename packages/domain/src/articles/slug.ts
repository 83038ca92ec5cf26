import slugify from 'slugify';

const maxBaseLength = 80;
/** Used when a title has nothing slugify can transliterate (e.g. only CJK characters or emoji). */
export const fallbackSlug = 'article';

/**
 * The slug a title asks for, before uniqueness: lower case ASCII words joined by dashes. A title is plain
 * text: `<` and `>` separate words (slugify would spell them "less" and "greater": `<script>` must give
 * `script`).
 */
export function slugBase(title: string): string {
  const slug = slugify(title.replace(/[<>]/g, ' '), { lower: true, strict: true, trim: true });
  if (slug.length === 0) return fallbackSlug;
  if (slug.length <= maxBaseLength) return slug;
  // Cut on a word boundary so a long title does not end in half a word.
  const cut = slug.slice(0, maxBaseLength);
  const lastDash = cut.lastIndexOf('-');
  return lastDash > maxBaseLength / 2 ? cut.slice(0, lastDash) : cut;
}

/**
 * The first free slug for `base`: the base itself, else base-2, base-3, ...
 * `taken` holds the slugs already in use that start with the base.
 */
export function nextFreeSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** Whether a client-chosen slug is well-formed (what slugBase could produce, plus numeric suffixes). */
export function isValidSlug(slug: string): boolean {
  return /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug) && slug.length <= 120;
}
