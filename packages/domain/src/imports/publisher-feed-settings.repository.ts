import type { ExpressionBuilder } from 'kysely';
import { sql } from 'kysely';
import type { DbOrTx } from '../db/create-db';
import { executePrepared } from '../db/prepared-statements';
import type { Database, PublisherRow } from '../db/tables';
import { type ImportRules, toImportRules } from '../import-rules';

// A publisher as the feed import reads it (its settings, rules and host sites) and which publishers the hourly
// run fetches. What a fetch leaves on the publisher: publisher-feed-state.repository.ts.

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

export function defaultSitesOf(eb: ExpressionBuilder<Database, 'publishers'>) {
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

export function toPublisherFeedSettings(row: SettingsRow): PublisherFeedSettings {
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

export const settingsColumns = [
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
