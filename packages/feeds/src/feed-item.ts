import type { FeedAuthor, FeedImageMeta } from './item-metadata';

/** One feed entry, normalised and safe to store and render. */
export interface FeedItem {
  /** Stable identity within the feed: the item's guid/id, else its link, else `sha256:<hex of title + date>`. */
  guid: string;
  /** Plain text, never empty unless the item has no title, no body text and no link. */
  title: string;
  /** Sanitised HTML (may be empty). */
  body: string;
  /**
   * The item's description or summary (RSS `description`, Atom `summary`) as plain text, or null when it has
   * none; with RSS `content:encoded` it is the short description beside the full body. Only its start, at most
   * SUMMARY_TEXT_LENGTH (1,000) UTF-16 units: it is read for the excerpt, and for RSS without content:encoded
   * the description is the whole body.
   */
  summary: string | null;
  /** Absolute http(s) link to the article, or null. */
  url: string | null;
  /** Absolute http(s) URL of the smaller picture (see extractImages), or null. */
  thumbnail: string | null;
  /** Absolute http(s) URL of the larger picture, or null. */
  image: string | null;
  /** What the feed says about `thumbnail` and `image` (alt, caption, credit, size), or null. */
  thumbnailMeta: FeedImageMeta | null;
  imageMeta: FeedImageMeta | null;
  /** The authors in feed order (dc:creator, Atom author, RSS author's name, JSON Feed authors), at most 20. */
  authors: FeedAuthor[];
  /** The summary when it is not the body's start (plain text, at most 500 characters), else null. */
  standfirst: string | null;
  /** Trimmed, deduplicated case-insensitively (first spelling kept), at most 20. */
  categories: string[];
  publishedAt: Date | null;
}
