import { type ExpressionBuilder, sql } from 'kysely';
import type { DbOrTx, Tx } from '../db/create-db';
import { executePrepared } from '../db/prepared-statements';
import type { Database, PublisherRow } from '../db/tables';
import type { FetchState } from '../imports/feed-import.service';
import { type ImportRules, toImportRules } from '../imports/import-rules';
import { importedGuidsAmong } from '../imports/imported-article.repository';
import { summariseFeedError } from './feed-health';

/** Consecutive failed fetches after which a feed is paused (left out of the hourly import). */
export const pauseAfterFailures = 10;

/** What importing a publisher's feed needs to know about the publisher. */
export interface PublisherFeedSettings {
  id: string;
  /** Display name; becomes the `source` of its imported articles. */
  name: string;
  feedUrl: string | null;
  defaultTags: string[];
  autoApprove: boolean;
  approved: boolean;
  disabled: boolean;
  /** Set when the feed was paused after too many consecutive failures; resumed by hand. */
  pausedAt: Date | null;
  importRules: ImportRules;
  /** Validators stored from the last successful fetch, sent back as If-None-Match / If-Modified-Since. */
  etag: string | null;
  lastModified: string | null;
  /** sha256 of the last imported body: a byte-identical body is not parsed again. */
  feedBodyHash: string | null;
  /** The feed's own refresh hint (ttl, sy:update*) from its last full body, seconds. */
  feedRefreshSeconds: number | null;
  /** When the feed's server answered 410 Gone (the hourly run skips it); null otherwise. */
  feedGoneAt: Date | null;
  /** The permanent redirect counted on the last consecutive fetches (see notePermanentRedirect), or null. */
  redirectTarget: string | null;
  /** The publisher's default host sites, by id and by slug (sorted by slug). */
  hostSiteIds: string[];
  hostSites: string[];
}

/** Whether the hourly import covers this publisher: approved, not disabled, feed not paused, with a feed URL. */
export function isImportable(publisher: PublisherFeedSettings): boolean {
  return publisher.approved && !publisher.disabled && publisher.pausedAt === null && !!publisher.feedUrl;
}

function defaultSitesOf(eb: ExpressionBuilder<Database, 'publishers'>) {
  return eb
    .selectFrom('publisher_default_sites')
    .innerJoin('sites', 'sites.id', 'publisher_default_sites.site_id')
    .whereRef('publisher_default_sites.publisher_id', '=', 'publishers.id')
    .select(
      sql<
        { id: string; slug: string }[]
      >`coalesce(json_agg(json_build_object('id', sites.id, 'slug', sites.slug) order by sites.slug), '[]')`.as(
        'default_sites',
      ),
    )
    .as('default_sites');
}

type SettingsRow = Pick<
  PublisherRow,
  | 'id'
  | 'name'
  | 'feed_url'
  | 'default_tags'
  | 'auto_approve'
  | 'approved'
  | 'disabled_at'
  | 'feed_paused_at'
  | 'import_rules'
  | 'etag'
  | 'last_modified'
  | 'feed_body_hash'
  | 'feed_refresh_seconds'
  | 'feed_gone_at'
  | 'redirect_target'
> & { default_sites: { id: string; slug: string }[] | null };

function toPublisherFeedSettings(row: SettingsRow): PublisherFeedSettings {
  const sites = row.default_sites ?? [];
  return {
    id: row.id,
    name: row.name,
    feedUrl: row.feed_url,
    defaultTags: row.default_tags,
    autoApprove: row.auto_approve,
    approved: row.approved,
    disabled: row.disabled_at !== null,
    pausedAt: row.feed_paused_at,
    importRules: toImportRules(row.import_rules),
    etag: row.etag,
    lastModified: row.last_modified,
    feedBodyHash: row.feed_body_hash,
    feedRefreshSeconds: row.feed_refresh_seconds,
    feedGoneAt: row.feed_gone_at,
    redirectTarget: row.redirect_target,
    hostSiteIds: sites.map((site) => site.id),
    hostSites: sites.map((site) => site.slug),
  };
}

const settingsColumns = [
  'publishers.id',
  'publishers.name',
  'publishers.feed_url',
  'publishers.default_tags',
  'publishers.auto_approve',
  'publishers.approved',
  'publishers.disabled_at',
  'publishers.feed_paused_at',
  'publishers.import_rules',
  'publishers.etag',
  'publishers.last_modified',
  'publishers.feed_body_hash',
  'publishers.feed_refresh_seconds',
  'publishers.feed_gone_at',
  'publishers.redirect_target',
] as const;

/** Ids of the publishers the hourly import fetches: approved, enabled, with a feed URL. */
export async function listImportablePublisherIds(db: DbOrTx): Promise<string[]> {
  const rows = await db
    .selectFrom('publishers')
    .select('id')
    .where('approved', '=', true)
    .where('disabled_at', 'is', null)
    .where('feed_paused_at', 'is', null)
    .where('feed_url', 'is not', null)
    .where('feed_url', '<>', '')
    .orderBy('id')
    .execute();
  return rows.map((row) => row.id);
}

/**
 * The publishers the hourly import fetches, with their names (the queue dashboard shows them), by id.
 * With `dueBy`, only those due by then: not marked gone (410), and not asked by their server's hints to
 * wait past `dueBy` (next_fetch_after).
 */
export async function listImportablePublishers(
  db: DbOrTx,
  dueBy?: Date,
): Promise<{ id: string; name: string }[]> {
  let query = db
    .selectFrom('publishers')
    .select(['id', 'name'])
    .where('approved', '=', true)
    .where('disabled_at', 'is', null)
    .where('feed_paused_at', 'is', null)
    .where('feed_url', 'is not', null)
    .where('feed_url', '<>', '');
  if (dueBy) {
    query = query
      .where('feed_gone_at', 'is', null)
      .where((eb) => eb.or([eb('next_fetch_after', 'is', null), eb('next_fetch_after', '<=', dueBy)]));
  }
  return query.orderBy('id').execute();
}

export async function findPublisherFeedSettings(
  db: DbOrTx,
  publisherId: string,
): Promise<PublisherFeedSettings | undefined> {
  // Prepared (as are the other statements of a fetch): run by every fetch job, parsed once per connection.
  const [row] = await executePrepared(
    db,
    db
      .selectFrom('publishers')
      .select(settingsColumns)
      .select(defaultSitesOf)
      .where('publishers.id', '=', publisherId),
  );
  return row && toPublisherFeedSettings(row);
}

/** The fetch state a successful fetch leaves (see recordFeedFetchSuccess). */
interface SuccessfulFetch extends FetchState {
  notModified: boolean;
  etag: string | null;
  lastModified: string | null;
}

function fetchSuccessValues(fetched: SuccessfulFetch, at: Date) {
  return (eb: ExpressionBuilder<Database, 'publishers'>) => ({
    etag: fetched.notModified ? eb.fn.coalesce(eb.val(fetched.etag), eb.ref('etag')) : fetched.etag,
    last_modified: fetched.notModified
      ? eb.fn.coalesce(eb.val(fetched.lastModified), eb.ref('last_modified'))
      : fetched.lastModified,
    last_fetched_at: at,
    last_error: null,
    consecutive_failures: 0,
    // The feed answered: whatever a 410 said before no longer holds.
    feed_gone_at: null,
    ...(fetched.bodyHash !== undefined && { feed_body_hash: fetched.bodyHash }),
    ...(fetched.feedRefreshSeconds !== undefined && { feed_refresh_seconds: fetched.feedRefreshSeconds }),
    ...(fetched.nextFetchAfter !== undefined && { next_fetch_after: fetched.nextFetchAfter }),
    updated_at: sql<Date>`now()`,
  });
}

/**
 * A successful fetch: stores the validators to send next time, the time, and clears the failure
 * state. After a 304 (`notModified`) a validator the server did not repeat keeps its stored value;
 * after a full response the stored validators are exactly the response's. False when there is no
 * such publisher.
 */
export async function recordFeedFetchSuccess(
  db: DbOrTx,
  publisherId: string,
  fetched: SuccessfulFetch,
  at: Date,
): Promise<boolean> {
  const rows = await executePrepared(
    db,
    db
      .updateTable('publishers')
      .set(fetchSuccessValues(fetched, at))
      .where('id', '=', publisherId)
      .returning('id'),
  );
  return rows.length > 0;
}

/**
 * Starts an import of a full fetch, in one statement: records the fetch as recordFeedFetchSuccess
 * does (inside the import's transaction, so it is undone with the items if the import fails), which
 * locks the publisher's row until the transaction ends (two imports of one publisher, the hourly one
 * and a manual re-trigger, run one after the other), and returns the publisher's feed settings and
 * which of `guids` it has already imported. Undefined when there is no such publisher.
 *
 * The guids are read with the statement's snapshot, taken before it waits for the row lock: articles
 * that a concurrent import commits meanwhile are not among them, and the insert's ON CONFLICT skips
 * those (as it does for any race).
 */
export async function startFeedImport(
  tx: Tx,
  publisherId: string,
  fetched: SuccessfulFetch,
  at: Date,
  guids: readonly string[],
): Promise<{ publisher: PublisherFeedSettings; importedGuids: Set<string> } | undefined> {
  const [row] = await executePrepared(
    tx,
    tx
      .updateTable('publishers')
      .set(fetchSuccessValues(fetched, at))
      .where('publishers.id', '=', publisherId)
      .returning(settingsColumns)
      .returning(defaultSitesOf)
      .returning(importedGuidsAmong(sql.ref('publishers.id'), guids).as('imported_guids')),
  );
  return row && { publisher: toPublisherFeedSettings(row), importedGuids: new Set(row.imported_guids) };
}

/**
 * A failed fetch (after its retries, or a permanent failure): the reason, and one more consecutive
 * failure. The failure that makes `pauseAfterFailures` in a row pauses the feed, with the reason in
 * words. Returns the publisher's name, feed URL, new count of consecutive failures and whether this
 * failure paused the feed (undefined: no such publisher).
 */
export async function recordFeedFetchFailure(
  db: DbOrTx,
  publisherId: string,
  error: string,
): Promise<
  { name: string; feedUrl: string | null; consecutiveFailures: number; paused: boolean } | undefined
> {
  const reason = pauseReason(error).slice(0, 1000);
  const row = await db
    .updateTable('publishers')
    .set((eb) => {
      const pausing = sql<boolean>`(feed_paused_at is null and consecutive_failures + 1 >= ${pauseAfterFailures})`;
      return {
        last_error: error.slice(0, 1000),
        last_failed_at: sql`now()`,
        consecutive_failures: eb('consecutive_failures', '+', 1),
        feed_paused_at: sql`case when ${pausing} then now() else feed_paused_at end`,
        feed_pause_reason: sql`case when ${pausing} then ${reason} else feed_pause_reason end`,
        updated_at: sql`now()`,
      };
    })
    .where('id', '=', publisherId)
    .returning(['name', 'feed_url as feedUrl', 'consecutive_failures as consecutiveFailures'])
    .returning(
      sql<boolean>`feed_paused_at is not null and consecutive_failures = ${pauseAfterFailures}`.as('paused'),
    )
    .executeTakeFirst();
  return row;
}

/** Why a feed was paused, in words: the failure count and the last error explained (summariseFeedError). */
export function pauseReason(storedError: string): string {
  const { message, detail } = summariseFeedError(storedError);
  const said = message.replace(/\.$/, '');
  const why = detail.replace(/\.$/, '');
  return `${pauseAfterFailures} failed fetches in a row; the last one: ${said}${why ? ` (${why})` : ''}.`;
}

/**
 * Resumes a paused feed: the pause and the failure count are cleared (the last error stays for the
 * record), so the next hourly run fetches it again. False when there is no such publisher.
 */
export async function resumeFeed(db: DbOrTx, publisherId: string): Promise<boolean> {
  const result = await db
    .updateTable('publishers')
    .set({ feed_paused_at: null, feed_pause_reason: null, consecutive_failures: 0, updated_at: sql`now()` })
    .where('id', '=', publisherId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Forgets the stored validators, the body hash and any server-hinted delay: an import that left items
 * waiting (maxNewItemsPerFetch) must get and parse the whole feed at the next hourly run, not a 304 or
 * an "unchanged body", or the waiting items would never arrive.
 */
export async function forgetFeedValidators(tx: Tx, publisherId: string): Promise<void> {
  await tx
    .updateTable('publishers')
    .set({ etag: null, last_modified: null, feed_body_hash: null, next_fetch_after: null })
    .where('id', '=', publisherId)
    .returning(['name', 'feed_url as feedUrl', 'consecutive_failures as consecutiveFailures'])
    .executeTakeFirst();
}
