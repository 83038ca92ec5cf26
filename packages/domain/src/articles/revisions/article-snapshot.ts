import type { Article } from '../article';

/**
 * What a revision keeps of an article: the article as the admin `GET /article/:id` reads it (every column
 * and its host sites), minus the few fields that are not content. Built generically (everything but
 * `notSnapshotFields`), so a field added to the article flows into revisions without touching this file;
 * `test/article-revision-columns.test.ts` fails when a column of `articles` is neither here nor listed
 * as not content. Dates are ISO strings (a snapshot is JSON).
 */
export type ArticleSnapshot = Record<string, unknown>;

/** Article fields that are not content: identity, bookkeeping times, the row version. */
export const notSnapshotFields = ['id', 'createdAt', 'updatedAt', 'version'] as const;

/**
 * Columns of `articles` that no revision keeps, with why: derived from other columns, or kept by the
 * database. Read by the column-coverage test.
 */
export const notSnapshotColumns = {
  id: 'identity: the revision belongs to it',
  created_at: 'bookkeeping',
  updated_at: 'bookkeeping: every write moves it',
  excerpt: 'derived from the body on every write',
  search_vector: 'kept by a trigger from title and body',
} as const;

/**
 * Snapshot fields that a restore does not write: the lifecycle (a restore never changes the status or the
 * embargo) and
 * the provenance of imported articles (no route writes them). Every other field is written back through
 * the same update as `PUT /article/:id`, host sites through the same replacement as the host-site route.
 */
export const notRestoredFields = [
  'status',
  // Visibility, like the status: an embargo is set and lifted by its own route, never by a restore.
  'embargoUntil',
  'publishedAt',
  'reviewedAt',
  'reviewReason',
  'isAggregated',
  'source',
  'sourceUrl',
  'rssFeedGuid',
  'publisherId',
  'sourcePublishedAt',
  // Who created and who submitted it for review: provenance, kept by the article for ever.
  'createdBy',
  'submittedBy',
  // Issue 32: derived from the pictures (not a column), and corrections are appended, never rewritten.
  'needsAltText',
  'corrections',
] as const;

export function articleSnapshot(article: Article): ArticleSnapshot {
  // Through JSON and back, so a snapshot compares equal to one read from the database (jsonb).
  return JSON.parse(articleSnapshotJson(article)) as ArticleSnapshot;
}

/** The snapshot as the JSON text a revision stores (dates as ISO strings): built once, sent as it is. */
export function articleSnapshotJson(article: Article): string {
  const snapshot: Record<string, unknown> = {};
  const skipped = new Set<string>(notSnapshotFields);
  for (const [key, value] of Object.entries(article)) if (!skipped.has(key)) snapshot[key] = value;
  return JSON.stringify(snapshot);
}

/** The part of a snapshot a restore writes (see notRestoredFields), host sites apart. */
export function restorableFields(snapshot: ArticleSnapshot): {
  fields: Record<string, unknown>;
  hostSites: string[];
} {
  const skipped = new Set<string>([...notRestoredFields, 'hostSites']);
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(snapshot)) if (!skipped.has(key)) fields[key] = value;
  return { fields, hostSites: (snapshot.hostSites as string[] | undefined) ?? [] };
}
