import { excerptFromHtml, excerptFromText } from '@newsroom/html';
import type { Byline, ImageMeta } from '../article-fields';
import { initialStatus } from '../articles/article-lifecycle';
import { normaliseTags } from '../articles/tags';
import type { ArticleStatus } from '../db/tables';
import { defaultImportRules, type ImportRules, type TagMapping } from '../import-rules';
import type { PublisherFeedSettings } from './publisher-feed-settings.repository';

/**
 * A normalised feed item as the feeds package produces it (its `FeedItem`). Declared here by
 * shape so the domain stays free of HTTP code: body is already sanitised HTML, urls are absolute.
 */
export interface ImportableFeedItem {
  guid: string;
  title: string;
  body: string;
  url: string | null;
  thumbnail: string | null;
  image: string | null;
  categories: string[];
  publishedAt: Date | null;
  /** The item's own description or summary as plain text, when the feed gives one apart from the body. */
  summary?: string | null;
  /** Issue 32: what the feed says about its pictures, its authors and its standfirst (absent: nothing). */
  thumbnailMeta?: ImportedImageMeta | null;
  imageMeta?: ImportedImageMeta | null;
  authors?: { name: string; url: string | null }[];
  standfirst?: string | null;
}

/** A feed picture's metadata (the feeds package's FeedImageMeta); no focal point: editors set one. */
export interface ImportedImageMeta {
  alt: string | null;
  caption: string | null;
  credit: string | null;
  width: number | null;
  height: number | null;
}

/**
 * A feed item whose guid is known before it is normalised (the feeds package's `FeedEntry`): the
 * import calls normalise() only for items the publisher does not have yet.
 */
export interface DeferredFeedItem {
  guid: string;
  normalise(): ImportableFeedItem;
}

/** An article as an import would create it, before it gets a slug and an id. The preview shows exactly this. */
export interface ImportedArticleDraft {
  title: string;
  body: string;
  /** The item's summary, else the body's first paragraph (see excerptFromHtml). */
  excerpt: string;
  tags: string[];
  category: string | null;
  section: string | null;
  thumbnail: string | null;
  image: string | null;
  thumbnailMeta: ImageMeta | null;
  imageMeta: ImageMeta | null;
  bylines: Byline[];
  standfirst: string | null;
  status: ArticleStatus;
  isAggregated: true;
  source: string;
  sourceUrl: string | null;
  rssFeedGuid: string;
  publisherId: string;
  publishedAt: Date | null;
  sourcePublishedAt: Date | null;
  hostSites: string[];
}

export const maxImportedTags = 20;
export const maxTagLength = 100;
export const untitledTitle = 'Untitled';

/**
 * The tags of an imported article: the publisher's default tags first, then the item's categories
 * (each renamed or dropped by the publisher's tag mappings, matched case-insensitively).
 * Each is trimmed with inner whitespace collapsed; empty ones and ones longer than 100 characters
 * are dropped; duplicates are removed case-insensitively keeping the first spelling (so the
 * publisher's spelling wins over the feed's); at most `maxTags` (default 20) are kept (defaults first).
 */
export function importedTags(
  defaultTags: readonly string[],
  categories: readonly string[],
  rules: Pick<ImportRules, 'tagMappings' | 'maxTags'> = defaultImportRules,
): string[] {
  return normaliseTags([...defaultTags, ...mappedCategories(categories, rules.tagMappings)])
    .filter((tag) => tag.length <= maxTagLength)
    .slice(0, Math.min(rules.maxTags, maxImportedTags));
}

const mappingCache = new WeakMap<readonly TagMapping[], Map<string, string | null>>();

/** The item's categories with the publisher's tag mappings applied: renamed, dropped or kept as they are. */
function mappedCategories(categories: readonly string[], mappings: readonly TagMapping[]): string[] {
  if (mappings.length === 0) return [...categories];
  let byKey = mappingCache.get(mappings);
  if (!byKey) {
    byKey = new Map(mappings.map((mapping) => [mapping.from.toLocaleLowerCase(), mapping.to]));
    mappingCache.set(mappings, byKey);
  }
  const map = byKey;
  return categories.flatMap((category) => {
    const key = category.trim().replace(/\s+/g, ' ').toLocaleLowerCase();
    if (!map.has(key)) return [category];
    const to = map.get(key);
    return to === null || to === undefined ? [] : [to];
  });
}

/**
 * When an imported article counts as published: only when it is published at once (auto-approve).
 * Then it is the item's own date, so a feed's back catalogue keeps its order in the listings,
 * unless the item has no date or claims a future one: then it is the import time.
 */
export function importedPublishedAt(status: ArticleStatus, itemDate: Date | null, now: Date): Date | null {
  if (status !== 'published') return null;
  return itemDate && itemDate.getTime() <= now.getTime() ? itemDate : now;
}

/**
 * Turns a feed item into the article an import creates for `publisher`. The one mapping used by
 * the import and by the test-feed preview, so the preview shows exactly what would be saved.
 */
export function toImportedArticle(
  item: ImportableFeedItem,
  publisher: Pick<PublisherFeedSettings, 'id' | 'name' | 'defaultTags' | 'autoApprove' | 'hostSites'> & {
    importRules?: ImportRules;
  },
  now: Date,
): ImportedArticleDraft {
  const status = initialStatus({ kind: 'imported', autoApprove: publisher.autoApprove });
  const rules = publisher.importRules ?? defaultImportRules;
  return {
    title: item.title.trim() || untitledTitle,
    body: item.body,
    excerpt: item.summary ? excerptFromText(item.summary) : excerptFromHtml(item.body),
    tags: importedTags(publisher.defaultTags, item.categories, rules),
    category: rules.defaultCategory,
    section: rules.defaultSection,
    // One picture serves both fields when the feed has only one.
    thumbnail: item.thumbnail ?? item.image,
    image: item.image ?? item.thumbnail,
    // Each picture's metadata follows the picture; imported ones may lack alt text (flagged, needsAltText).
    thumbnailMeta: imageMetaOf(item.thumbnail ? item.thumbnailMeta : item.imageMeta),
    imageMeta: imageMetaOf(item.image ? item.imageMeta : item.thumbnailMeta),
    bylines: (item.authors ?? []).map((author) => ({ name: author.name, url: author.url, userId: null })),
    standfirst: item.standfirst ?? null,
    status,
    isAggregated: true,
    source: publisher.name,
    sourceUrl: item.url,
    rssFeedGuid: item.guid,
    publisherId: publisher.id,
    publishedAt: importedPublishedAt(status, item.publishedAt, now),
    sourcePublishedAt: item.publishedAt,
    hostSites: [...publisher.hostSites],
  };
}

/** An item as the import receives it: normalised already, or normalised only if it turns out to be new. */
export type FeedItemSource = ImportableFeedItem | DeferredFeedItem;

function imageMetaOf(meta: ImportedImageMeta | null | undefined): ImageMeta | null {
  return meta ? { ...meta, focalPoint: null } : null;
}
