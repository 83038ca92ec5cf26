import { type Kysely, sql } from 'kysely';

// Frozen in time: Kysely<any>, no application types.
// When each site API key was last used, for administrators deciding which keys to revoke. The API records
// it in memory and writes it at most once a minute per process, so the column changes often and must not
// look like a content change: the statement trigger that sends NOTIFY content_changed (which empties every
// replica's client caches) now fires on updates of the columns that decide what a key may read only.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('site_api_keys').addColumn('last_used_at', 'timestamptz').execute();
  await sql`drop trigger site_api_keys_notify_content_changed on site_api_keys`.execute(db);
  await sql`
    create trigger site_api_keys_notify_content_changed
    after insert or delete or truncate on site_api_keys
    for each statement execute function notify_content_changed()`.execute(db);
  await sql`
    create trigger site_api_keys_access_notify_content_changed
    after update of site_id, key_hash, revoked_at on site_api_keys
    for each statement execute function notify_content_changed()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists site_api_keys_access_notify_content_changed on site_api_keys`.execute(db);
  await sql`drop trigger if exists site_api_keys_notify_content_changed on site_api_keys`.execute(db);
  await sql`
    create trigger site_api_keys_notify_content_changed
    after insert or update or delete or truncate on site_api_keys
    for each statement execute function notify_content_changed()`.execute(db);
  await db.schema.alterTable('site_api_keys').dropColumn('last_used_at').execute();
}
