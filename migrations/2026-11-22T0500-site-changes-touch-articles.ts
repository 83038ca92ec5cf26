import { type Kysely, sql } from 'kysely';

// Frozen in time: Kysely<any>, no application types.
// An article's client JSON lists its host sites by slug. Renaming a site or deleting it changes that JSON for
// every article it hosts without writing the articles rows, so these triggers touch them (updated_at = now()):
// a new row version then names the new representation (the client API reuses serialised articles by row
// version), and updatedAt tells readers the article's public form changed. Host-site edits through the article
// routes already touch the article. Deletion is caught BEFORE the cascade removes the article_sites rows.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function touch_articles_of_site() returns trigger language plpgsql as $$
    begin
      update articles set updated_at = now()
       where id in (select article_id from article_sites where site_id = old.id);
      return case when tg_op = 'DELETE' then old else new end;
    end $$`.execute(db);
  await sql`
    create trigger sites_rename_touches_articles
    after update of slug on sites
    for each row when (old.slug is distinct from new.slug)
    execute function touch_articles_of_site()`.execute(db);
  await sql`
    create trigger sites_delete_touches_articles
    before delete on sites
    for each row execute function touch_articles_of_site()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists sites_delete_touches_articles on sites`.execute(db);
  await sql`drop trigger if exists sites_rename_touches_articles on sites`.execute(db);
  await sql`drop function if exists touch_articles_of_site()`.execute(db);
}
