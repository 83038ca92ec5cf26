import type { Article, EditArticleBody } from '../../../api/articles';

// The editor's fields as one value, and what changed against the version it was loaded from.

export interface ArticleDraft {
  title: string;
  slug: string;
  body: string;
  tags: string[];
  category: string;
  section: string;
  thumbnail: string;
  image: string;
  hostSites: string[];
  /** Issue 32: the dek, the bylines, each picture's metadata and a correction note (published articles). */
  standfirst: string;
  bylines: DraftByline[];
  thumbnailMeta: DraftImageMeta;
  imageMeta: DraftImageMeta;
  correction: string;
}

export interface DraftByline {
  name: string;
  url: string;
  userId: string | null;
}

export interface DraftImageMeta {
  alt: string;
  caption: string;
  credit: string;
  width: number | null;
  height: number | null;
  focalPoint: { x: number; y: number } | null;
}

export const emptyImageMeta: DraftImageMeta = {
  alt: '',
  caption: '',
  credit: '',
  width: null,
  height: null,
  focalPoint: null,
};

type StoredImageMeta = Article['imageMeta'];

function draftImageMeta(meta: StoredImageMeta): DraftImageMeta {
  if (!meta) return emptyImageMeta;
  return {
    alt: meta.alt ?? '',
    caption: meta.caption ?? '',
    credit: meta.credit ?? '',
    width: meta.width,
    height: meta.height,
    focalPoint: meta.focalPoint,
  };
}

/** The metadata as the API takes it (blank text: null); null when nothing is set. */
export function imageMetaBody(meta: DraftImageMeta) {
  const body = {
    alt: optional(meta.alt),
    caption: optional(meta.caption),
    credit: optional(meta.credit),
    width: meta.width,
    height: meta.height,
    focalPoint: meta.focalPoint,
  };
  return Object.values(body).every((value) => value === null) ? null : body;
}

const bylinesBody = (bylines: readonly DraftByline[]) =>
  bylines
    .filter((b) => b.name.trim() !== '')
    .map((b) => ({ name: b.name.trim(), url: optional(b.url), userId: b.userId }));

export const emptyDraft: ArticleDraft = {
  title: '',
  slug: '',
  body: '',
  tags: [],
  category: '',
  section: '',
  thumbnail: '',
  image: '',
  hostSites: [],
  standfirst: '',
  bylines: [],
  thumbnailMeta: emptyImageMeta,
  imageMeta: emptyImageMeta,
  correction: '',
};

export function draftOf(article: Article): ArticleDraft {
  return {
    title: article.title,
    slug: article.slug,
    body: article.body,
    tags: article.tags,
    category: article.category ?? '',
    section: article.section ?? '',
    thumbnail: article.thumbnail ?? '',
    image: article.image ?? '',
    hostSites: [...article.hostSites].sort(),
    standfirst: article.standfirst ?? '',
    bylines: article.bylines.map((b) => ({ name: b.name, url: b.url ?? '', userId: b.userId })),
    thumbnailMeta: draftImageMeta(article.thumbnailMeta),
    imageMeta: draftImageMeta(article.imageMeta),
    correction: '',
  };
}

const optional = (value: string): string | null => value.trim() || null;
const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((value, i) => value === b[i]);
const sortedCopy = (list: readonly string[]) => [...list].sort();

/** The PUT body: only the fields that differ from `base` (empty optional fields become null). */
export function changedFields(base: ArticleDraft, draft: ArticleDraft): EditArticleBody {
  const changes: EditArticleBody = {};
  if (draft.title !== base.title) changes.title = draft.title;
  if (draft.slug !== base.slug) changes.slug = draft.slug;
  if (draft.body !== base.body) changes.body = draft.body;
  if (!sameList(draft.tags, base.tags)) changes.tags = draft.tags;
  if (optional(draft.category) !== optional(base.category)) changes.category = optional(draft.category);
  if (optional(draft.section) !== optional(base.section)) changes.section = optional(draft.section);
  if (optional(draft.thumbnail) !== optional(base.thumbnail)) changes.thumbnail = optional(draft.thumbnail);
  if (optional(draft.image) !== optional(base.image)) changes.image = optional(draft.image);
  if (optional(draft.standfirst) !== optional(base.standfirst))
    changes.standfirst = optional(draft.standfirst);
  if (JSON.stringify(bylinesBody(draft.bylines)) !== JSON.stringify(bylinesBody(base.bylines)))
    changes.bylines = bylinesBody(draft.bylines);
  for (const key of ['thumbnailMeta', 'imageMeta'] as const) {
    const meta = imageMetaBody(draft[key]);
    if (JSON.stringify(meta) !== JSON.stringify(imageMetaBody(base[key]))) changes[key] = meta;
  }
  if (draft.correction.trim() !== '') changes.correction = { text: draft.correction.trim() };
  return changes;
}

export const hostSitesChanged = (base: ArticleDraft, draft: ArticleDraft): boolean =>
  !sameList(sortedCopy(base.hostSites), sortedCopy(draft.hostSites));

/**
 * The draft after a save of `sent`: a field still as it was sent takes the saved value (the server may
 * normalise it); a field changed while the save was under way keeps the person's newer value.
 */
export function draftAfterSave(current: ArticleDraft, sent: ArticleDraft, saved: ArticleDraft): ArticleDraft {
  const next: Record<string, unknown> = {};
  for (const key of Object.keys(saved) as (keyof ArticleDraft)[]) {
    next[key] = JSON.stringify(current[key]) === JSON.stringify(sent[key]) ? saved[key] : current[key];
  }
  return next as unknown as ArticleDraft;
}

export const isDirty = (base: ArticleDraft, draft: ArticleDraft): boolean =>
  Object.keys(changedFields(base, draft)).length > 0 || hostSitesChanged(base, draft);

/** The POST body of a new article (a slug cannot be chosen at creation: it is set by a PUT after). */
export function createBody(draft: ArticleDraft) {
  return {
    title: draft.title,
    body: draft.body,
    tags: draft.tags,
    category: optional(draft.category),
    section: optional(draft.section),
    thumbnail: optional(draft.thumbnail),
    image: optional(draft.image),
    hostSites: draft.hostSites,
    standfirst: optional(draft.standfirst),
    bylines: bylinesBody(draft.bylines),
    thumbnailMeta: imageMetaBody(draft.thumbnailMeta),
    imageMeta: imageMetaBody(draft.imageMeta),
  };
}

/** The slug rule of the API (lower-case ASCII words joined by single dashes, at most 120). */
export const isValidSlug = (slug: string): boolean =>
  slug.length <= 120 && /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug);

/** A slug suggestion from a title, for the "from title" button (the server makes it unique). */
export function slugFromTitle(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
}
