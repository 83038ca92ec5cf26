import { type Selectable, sql } from 'kysely';
import type { DbOrTx } from '../db/create-db';
import type { ArticleChangeTable } from '../db/tables';
import type { ArticleChange, ChangePosition } from './article-change';

/** An outbox row as read (the xid as a decimal string). */
type ChangeRow = Selectable<ArticleChangeTable>;

function toArticleChange(row: ChangeRow): ArticleChange {
  return {
    position: { xid: row.xid, articleId: row.article_id },
    articleId: row.article_id,
    changedAt: row.changed_at,
    visibleBefore: row.visible_before,
    visibleAfter: row.visible_after,
    deleted: row.deleted,
    sitesBefore: row.sites_before,
    sitesAfter: row.sites_after,
    slugBefore: row.slug_before,
    slugAfter: row.slug_after,
  };
}

/**
 * The oldest transaction id still running anywhere on the server (`pg_snapshot_xmin`): every transaction below
 * it has ended, so the outbox rows below it are final. Readers serve only those (see the module README).
 */
const visibleHorizon = sql<string>`pg_snapshot_xmin(pg_current_snapshot())`;

/** Columns of a change, with xid and the uuid arrays as JS strings. */
const changeColumns = sql`c.xid::text as xid, c.article_id, c.changed_at, c.visible_before, c.visible_after,
  c.deleted, c.sites_before::text[] as sites_before, c.sites_after::text[] as sites_after,
  c.slug_before, c.slug_after`;

/**
 * Up to `limit` final changes strictly after `after`, in (xid, article id) order, and the horizon they were
 * read below (a position `{ xid: horizon, articleId: nil }` is "now": nothing final lies between the last row
 * and it once fewer than `limit` rows came back). `waiting`: a committed change lies at or above the horizon (an
 * older write transaction is still open), so it becomes final, and readable, once that one ends.
 */
export async function findArticleChangesAfter(
  db: DbOrTx,
  after: ChangePosition,
  limit: number,
): Promise<{ changes: ArticleChange[]; horizon: string; waiting: boolean }> {
  const { rows } = await sql<ChangeRow & { horizon: string; waiting: boolean }>`
    with horizon as materialized (
      select h.xmin, exists (select 1 from article_changes w where w.xid >= h.xmin) as waiting
        from (select ${visibleHorizon} as xmin) h
    )
    select ${changeColumns}, horizon.xmin::text as horizon, horizon.waiting
      from horizon
      left join lateral (
        select * from article_changes c
         where (c.xid, c.article_id) > (${after.xid}::xid8, ${after.articleId}::uuid) and c.xid < horizon.xmin
         order by c.xid, c.article_id
         limit ${limit}
      ) c on true`.execute(db);
  const { horizon, waiting } = rows[0] as { horizon: string; waiting: boolean };
  return { changes: rows.filter((row) => row.xid !== null).map(toArticleChange), horizon, waiting };
}

/** One change relevant to a scope, with the article's current state in that scope. */
export interface ScopedArticleChange {
  change: ArticleChange;
  /** The article's row version if it is published and in the scope now, else null. */
  currentVersion: string | null;
  /** Its slug now, when currentVersion is not null. */
  currentSlug: string | null;
}

/**
 * The changes after `after` that a reader scoped to `siteId` (null: the whole network) can see (published in
 * its scope before or after), the first `matchLimit` among at most `scanLimit` final rows, with each article's
 * current row version if it is visible in the scope now. `scannedThrough` is the last row examined (null: none), `scannedAll`
 * whether the scan reached the horizon.
 */
export async function findScopedArticleChanges(
  db: DbOrTx,
  after: ChangePosition,
  siteId: string | null,
  scanLimit: number,
  matchLimit: number = scanLimit,
): Promise<{
  changes: ScopedArticleChange[];
  scannedThrough: ChangePosition | null;
  scannedAll: boolean;
  horizon: string;
  /** Retention's cut when this was read (see findPrunedThrough). */
  prunedThrough: string;
}> {
  const { rows } = await sql<
    ChangeRow & {
      current_version: string | null;
      current_slug: string | null;
      matches: boolean;
      horizon: string;
      scanned: string;
      pruned_through: string | null;
    }
  >`
    with horizon as materialized (select ${visibleHorizon} as xmin),
    scanned as materialized (
      select c.* from article_changes c, horizon
       where (c.xid, c.article_id) > (${after.xid}::xid8, ${after.articleId}::uuid) and c.xid < horizon.xmin
       order by c.xid, c.article_id
       limit ${scanLimit}
    ),
    counted as (select count(*)::text as scanned from scanned),
    last as (select xid, article_id from scanned order by xid desc, article_id desc limit 1)
    select ${changeColumns}, v.version as current_version, v.slug as current_slug, true as matches,
           horizon.xmin::text as horizon, counted.scanned, null as pruned_through, c.xid as sort_xid
      from (
        select * from scanned c
         where ${siteId}::uuid is null
            or (c.visible_before and ${siteId}::uuid = any(c.sites_before))
            or (c.visible_after and ${siteId}::uuid = any(c.sites_after))
         order by c.xid, c.article_id
         limit ${matchLimit}
      ) c
     cross join horizon cross join counted
      left join lateral (
        select a.xmin::text as version, a.slug from articles a
         where a.id = c.article_id and a.status = 'published'
           and (${siteId}::uuid is null
                or exists (select 1 from article_sites s where s.article_id = a.id and s.site_id = ${siteId}::uuid))
      ) v on true
    union all
    select last.xid::text, last.article_id, null, null, null, null, null, null, null, null, null, null, false,
           horizon.xmin::text, counted.scanned,
           (select pruned_through::text from article_changes_horizon), last.xid
      from horizon cross join counted left join last on true
     order by matches desc, sort_xid, article_id`.execute(db);
  const summary = rows[rows.length - 1] as (typeof rows)[number];
  const changes = rows
    .filter((row) => row.matches)
    .map((row) => ({
      change: toArticleChange(row),
      currentVersion: row.current_version,
      currentSlug: row.current_slug,
    }));
  return {
    changes,
    scannedThrough: summary.xid === null ? null : { xid: summary.xid, articleId: summary.article_id },
    scannedAll: Number(summary.scanned) < scanLimit,
    horizon: summary.horizon,
    prunedThrough: summary.pruned_through ?? '0',
  };
}

/** Retention has removed every change with xid at or below this ('0': nothing removed yet). */
export async function findPrunedThrough(db: DbOrTx): Promise<string> {
  const row = await db
    .selectFrom('article_changes_horizon')
    .select(sql<string>`pruned_through::text`.as('xid'))
    .executeTakeFirst();
  return row?.xid ?? '0';
}

/**
 * The highest final transaction id among changes older than `before` (null: none), the cut a prune may make:
 * whole transactions, and a prefix of the outbox's order.
 */
export async function findPruneCut(db: DbOrTx, before: Date): Promise<string | null> {
  const { rows } = await sql<{ xid: string | null }>`
    select max(xid)::text as xid from article_changes
     where changed_at < ${before} and xid < ${visibleHorizon}`.execute(db);
  return rows[0]?.xid ?? null;
}

/** Raises the recorded retention horizon (never lowers it). Must commit before the rows go. */
export async function raisePrunedThrough(db: DbOrTx, xid: string): Promise<void> {
  await sql`update article_changes_horizon set pruned_through = greatest(pruned_through, ${xid}::xid8)`.execute(
    db,
  );
}

/** Deletes up to `batchSize` changes with xid <= `through`, oldest first; returns how many. */
export async function deleteArticleChangesThrough(
  db: DbOrTx,
  through: string,
  batchSize: number,
): Promise<number> {
  const result = await sql`
    delete from article_changes
     where (xid, article_id) in (
       select xid, article_id from article_changes where xid <= ${through}::xid8
        order by xid, article_id limit ${batchSize})`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
