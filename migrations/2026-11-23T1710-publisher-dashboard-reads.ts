import { type Kysely, sql } from 'kysely';

// Frozen in time: Kysely<any>, no application types.
// What the dashboard's publisher views read:
// - last_failed_at: when the feed last failed for good (the fetch job gave up), next to last_fetched_at;
// - article counts per status for a page of publishers: an index-only scan per publisher;
// - the publisher list, newest first.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('publishers').addColumn('last_failed_at', 'timestamptz').execute();
  await sql`create index articles_publisher_status_idx on articles (publisher_id, status)`.execute(db);
  await sql`create index publishers_created_idx on publishers (created_at desc, id desc)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists publishers_created_idx`.execute(db);
  await sql`drop index if exists articles_publisher_status_idx`.execute(db);
  await db.schema.alterTable('publishers').dropColumn('last_failed_at').execute();
}
