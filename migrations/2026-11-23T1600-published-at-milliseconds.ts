import { type Kysely, sql } from 'kysely';

// Frozen in time: Kysely<any>, no application types.
// Listings seek from anchors read back into JavaScript Dates (milliseconds): a published_at with
// microseconds (`set published_at = now()`, a backfill) sorted after its own anchor and dropped out of
// every page while still being counted. timestamptz(3) stores milliseconds whoever writes, rounding
// anything finer on the way in, so stored values and anchors are always at one precision.
// The column's copy in article_sites (kept by triggers) gets the same type. The sync trigger's WHEN
// clause names the column, so it is dropped and created again, unchanged, around the type change.
// Rewrites both tables and their indexes under an exclusive lock: plan it like any table rewrite.
async function setPublishedAtType(db: Kysely<any>, type: 'timestamptz(3)' | 'timestamptz'): Promise<void> {
  await sql`drop trigger articles_sync_listing_columns on articles`.execute(db);
  await sql`alter table articles alter column published_at type ${sql.raw(type)}`.execute(db);
  await sql`alter table article_sites alter column published_at type ${sql.raw(type)}`.execute(db);
  await sql`
    create trigger articles_sync_listing_columns
    after update of status, published_at, is_aggregated on articles
    for each row
    when (old.status is distinct from new.status
       or old.published_at is distinct from new.published_at
       or old.is_aggregated is distinct from new.is_aggregated)
    execute function articles_sync_listing_columns()`.execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  await setPublishedAtType(db, 'timestamptz(3)');
}

export async function down(db: Kysely<any>): Promise<void> {
  await setPublishedAtType(db, 'timestamptz');
}
