import { type Kysely, sql } from 'kysely';

// Frozen in time: Kysely<any>, no application types.
//
// The client read path:
// 1. article_sites carries copies of what site-scoped listings order and filter by (published_at while the
//    article is published, else null; is_aggregated), so a site's listing is one index range scan
//    instead of a join that probes every published article. Triggers keep the copies right whoever writes.
// 2. Every committed change that can alter a client response sends NOTIFY content_changed, so each API
//    replica can drop its in-process caches within milliseconds, without the writers knowing about caches.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('article_sites')
    .addColumn('published_at', 'timestamptz')
    .addColumn('is_aggregated', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();

  await sql`
    update article_sites s
       set published_at = case when a.status = 'published' then a.published_at end,
           is_aggregated = a.is_aggregated
      from articles a
     where a.id = s.article_id`.execute(db);

  await sql`create index article_sites_published_idx on article_sites (site_id, published_at desc, article_id desc)
    where published_at is not null`.execute(db);
  await sql`create index article_sites_aggregated_published_idx
    on article_sites (site_id, published_at desc, article_id desc)
    where published_at is not null and is_aggregated`.execute(db);

  // A new host-site link copies the article's listing columns. FOR NO KEY UPDATE serialises it with a
  // concurrent publish/unpublish of that article (the foreign key's KEY SHARE lock would not): whichever
  // commits second sees the other's row, so the copy can never miss a status change.
  await sql`
    create function article_sites_copy_listing_columns() returns trigger language plpgsql as $$
    begin
      select case when a.status = 'published' then a.published_at end, a.is_aggregated
        into new.published_at, new.is_aggregated
        from articles a
       where a.id = new.article_id
         for no key update;
      return new;
    end $$`.execute(db);
  await sql`
    create trigger article_sites_copy_listing_columns
    before insert or update of article_id on article_sites
    for each row execute function article_sites_copy_listing_columns()`.execute(db);

  await sql`
    create function articles_sync_listing_columns() returns trigger language plpgsql as $$
    begin
      update article_sites
         set published_at = case when new.status = 'published' then new.published_at end,
             is_aggregated = new.is_aggregated
       where article_id = new.id;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger articles_sync_listing_columns
    after update of status, published_at, is_aggregated on articles
    for each row
    when (old.status is distinct from new.status
       or old.published_at is distinct from new.published_at
       or old.is_aggregated is distinct from new.is_aggregated)
    execute function articles_sync_listing_columns()`.execute(db);

  // NOTIFY is delivered on commit (never for a rolled-back change), and Postgres folds identical
  // notifications of one transaction into one; the payload (the transaction id) names the change.
  await sql`
    create function notify_content_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify('content_changed', txid_current()::text);
      return null;
    end $$`.execute(db);
  for (const table of ['articles', 'article_sites', 'sites', 'site_api_keys']) {
    await sql`
      create trigger ${sql.id(`${table}_notify_content_changed`)}
      after insert or update or delete or truncate on ${sql.id(table)}
      for each statement execute function notify_content_changed()`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['articles', 'article_sites', 'sites', 'site_api_keys']) {
    await sql`drop trigger if exists ${sql.id(`${table}_notify_content_changed`)} on ${sql.id(table)}`.execute(
      db,
    );
  }
  await sql`drop function if exists notify_content_changed()`.execute(db);
  await sql`drop trigger if exists articles_sync_listing_columns on articles`.execute(db);
  await sql`drop function if exists articles_sync_listing_columns()`.execute(db);
  await sql`drop trigger if exists article_sites_copy_listing_columns on article_sites`.execute(db);
  await sql`drop function if exists article_sites_copy_listing_columns()`.execute(db);
  await db.schema
    .alterTable('article_sites')
    .dropColumn('published_at')
    .dropColumn('is_aggregated')
    .execute();
}
