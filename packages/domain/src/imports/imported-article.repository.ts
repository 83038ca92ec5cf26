import { type Expression, type RawBuilder, sql } from 'kysely';
import type { DbOrTx } from '../db/create-db';
import { executePrepared } from '../db/prepared-statements';
import type { NewArticleRow } from '../db/tables';

/**
 * The guids among `guids` that a publisher (an id value or a column, e.g. `publishers.id`) has
 * already imported, as an array expression. Guids are unique per publisher, not globally.
 */
export function importedGuidsAmong(
  publisherId: Expression<string>,
  guids: readonly string[],
): RawBuilder<string[]> {
  return sql<string[]>`array(
    select a.rss_feed_guid from articles as a
    where a.publisher_id = ${publisherId} and a.rss_feed_guid = any(${[...guids]}::text[]))`;
}

/** Which of `guids` the publisher has already imported. */
export async function findImportedGuids(
  db: DbOrTx,
  publisherId: string,
  guids: readonly string[],
): Promise<Set<string>> {
  if (guids.length === 0) return new Set();
  const [row] = await executePrepared(
    db,
    db.selectNoFrom(importedGuidsAmong(sql.val(publisherId), guids).as('guids')),
  );
  return new Set(row?.guids);
}

/** An imported article as saveImportBatch takes it: its slug base instead of a slug (the database picks the free one). */
export type ImportedArticleRow = Omit<NewArticleRow, 'slug'> & { slug_base: string };

/**
 * What a successful fetch records on the publisher (the database function import_feed_batch writes it):
 * its validators (after a 304, `notModified`, a validator the server did not repeat keeps its stored value;
 * after a full response the stored ones become exactly the response's), its time, the failure state
 * cleared, and when given, the body's hash, the feed's refresh hint and the next fetch time.
 */
export interface FetchRecord {
  notModified: boolean;
  etag: string | null;
  lastModified: string | null;
  at: Date;
  bodyHash?: string | null;
  feedRefreshSeconds?: number | null;
  nextFetchAfter?: Date | null;
}

interface ImportBatchResult {
  outcome: 'imported' | 'stale' | 'missing';
  inserted: number;
}

export interface ImportBatch {
  publisherId: string;
  /** Records a fetch with the batch: locks the publisher's row first (a whole import of one batch). */
  fetch?: FetchRecord;
  /** With `fetch`: the publisher's import settings the rows were built from (PublisherFeedSettings.importFingerprint). */
  fingerprint?: string;
  articles: readonly ImportedArticleRow[];
}

/**
 * Saves a batch of imported articles in one round trip, with the database function import_feed_batch
 * (migration 2026-11-27T0400-import-feed-batch): slug bases locked, each article given the first free slug
 * (its base, else base-2, base-3, ...: nextFreeSlug), rows inserted (an item whose guid the publisher already
 * has is skipped) and linked to the publisher's default host sites. With `fetch`, the fetch is recorded in
 * the same statement, unless the publisher is gone (`missing`) or its import settings changed since
 * `fingerprint` was read (`stale`): then nothing is written.
 */
export async function saveImportBatch(db: DbOrTx, batch: ImportBatch): Promise<ImportBatchResult> {
  const { fetch } = batch;
  const fetchJson = fetch && {
    not_modified: fetch.notModified,
    etag: fetch.etag,
    last_modified: fetch.lastModified,
    at: fetch.at.toISOString(),
    ...(fetch.bodyHash !== undefined && { body_hash: fetch.bodyHash }),
    ...(fetch.feedRefreshSeconds !== undefined && { feed_refresh_seconds: fetch.feedRefreshSeconds }),
    ...(fetch.nextFetchAfter !== undefined && {
      next_fetch_after: fetch.nextFetchAfter?.toISOString() ?? null,
    }),
  };
  const call = sql<ImportBatchResult>`import_feed_batch(
    ${batch.publisherId}::uuid, ${batch.fingerprint ?? null}::text,
    ${fetchJson ? JSON.stringify(fetchJson) : null}::jsonb, ${JSON.stringify(batch.articles)}::jsonb)`;
  const [row] = await executePrepared(db, db.selectFrom(call.as('r')).select(['r.outcome', 'r.inserted']));
  if (!row) throw new Error('import_feed_batch returned no row');
  return row;
}
