import { type Kysely, sql } from 'kysely';

// Frozen in time: Kysely<any>, no application types.
// Issue 33, reads a CDN can hold:
// 1. site_api_keys.kind: 'secret' (every key so far: server-side, private answers, the change feed) or
//    'publishable' (read-only, safe in a browser; answers shared caches may keep). A key's kind never changes;
//    the access trigger still lists it so the trigger contract's "every read column notifies" holds.
// 2. cdn_purge_position: where the purge relay stands in the article_changes outbox (as webhook_relay_position).
// 3. cdn_purge_requests: purges the outbox does not record, written in the change's transaction by triggers:
//    a site row's update or deletion purges `site:<id>` (its name, URL template, CORS: every answer of it).
// 4. cdn_purges: one pending purge per (provider, surrogate key), coalesced; a sender leases a batch
//    (claimed_until), sends it, and deletes the rows whose generation it sent. A new request for a key in
//    flight bumps its generation, so it is sent again after the flight.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table site_api_keys
      add column kind text not null default 'secret',
      add constraint site_api_keys_kind_check check (kind in ('secret', 'publishable'))`.execute(db);
  await sql`drop trigger site_api_keys_access_notify_content_changed on site_api_keys`.execute(db);
  await sql`
    create trigger site_api_keys_access_notify_content_changed
    after update of site_id, key_hash, revoked_at, kind on site_api_keys
    for each statement execute function notify_content_changed()`.execute(db);

  await sql`
    create table cdn_purge_position (
      id boolean primary key default true check (id),
      xid xid8 not null,
      article_id uuid not null
    )`.execute(db);
  // Start at "now": changes before the relay existed were never in any CDN with surrogate keys.
  await sql`
    insert into cdn_purge_position (xid, article_id)
    values (pg_snapshot_xmin(pg_current_snapshot()), '00000000-0000-0000-0000-000000000000')`.execute(db);

  await sql`
    create table cdn_purge_requests (
      id bigserial primary key,
      key text not null,
      requested_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    create function request_site_purge() returns trigger language plpgsql as $$
    begin
      insert into cdn_purge_requests (key) values ('site:' || old.id::text);
      return null;
    end $$`.execute(db);
  await sql`
    create trigger sites_request_cdn_purge
    after update or delete on sites
    for each row execute function request_site_purge()`.execute(db);

  await sql`
    create table cdn_purges (
      provider text not null,
      key text not null,
      generation integer not null default 0,
      requested_at timestamptz not null default now(),
      attempts integer not null default 0,
      next_attempt_at timestamptz not null default now(),
      claimed_until timestamptz,
      primary key (provider, key)
    )`.execute(db);
  await sql`create index cdn_purges_due on cdn_purges (provider, next_attempt_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists cdn_purges`.execute(db);
  await sql`drop trigger if exists sites_request_cdn_purge on sites`.execute(db);
  await sql`drop function if exists request_site_purge()`.execute(db);
  await sql`drop table if exists cdn_purge_requests`.execute(db);
  await sql`drop table if exists cdn_purge_position`.execute(db);
  await sql`drop trigger if exists site_api_keys_access_notify_content_changed on site_api_keys`.execute(db);
  await sql`
    create trigger site_api_keys_access_notify_content_changed
    after update of site_id, key_hash, revoked_at on site_api_keys
    for each statement execute function notify_content_changed()`.execute(db);
  await sql`alter table site_api_keys drop column kind`.execute(db);
}
