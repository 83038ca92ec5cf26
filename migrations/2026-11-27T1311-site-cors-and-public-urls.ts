import { type Kysely, sql } from 'kysely';

// Frozen in time: Kysely<any>, no application types.
// Issue 28, browser-side child sites and canonical URLs:
// 1. sites.allowed_origins: the browser origins (scheme://host[:port]) whose pages may read the client API
//    with this site's keys (CORS). Empty: none. The sites statement trigger already notifies on any update,
//    so the key grants (which carry the origins) and the preflight's origin list are retired at once.
// 2. sites.public_base_url: where the child site serves its feeds and sitemaps from its own domain (the
//    sitemap index's <loc>s and RSS atom:link rel="self"); null: the origin of the article URL template.
// 3. Every client article now carries its canonical URL (`url` / `urls`), built from the template and the
//    domain of its host sites: a change of either touches the site's articles, so their row version (which
//    keys the article JSON cache) and updated_at move, and the change feed and webhooks report them.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('sites')
    .addColumn('allowed_origins', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn('public_base_url', 'text')
    .execute();
  await sql`
    alter table sites
      add constraint sites_allowed_origins_check check (cardinality(allowed_origins) <= 50),
      add constraint sites_public_base_url_check check (
        public_base_url ~ '^https?://' and length(public_base_url) <= 500)`.execute(db);
  // One trigger for everything an article's JSON takes from its sites (it replaces the rename trigger).
  await sql`drop trigger sites_rename_touches_articles on sites`.execute(db);
  await sql`
    create trigger sites_touch_articles
    after update of slug, article_url_template, domain on sites
    for each row when (old.slug is distinct from new.slug
                       or old.article_url_template is distinct from new.article_url_template
                       or old.domain is distinct from new.domain)
    execute function touch_articles_of_site()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists sites_touch_articles on sites`.execute(db);
  await sql`
    create trigger sites_rename_touches_articles
    after update of slug on sites
    for each row when (old.slug is distinct from new.slug)
    execute function touch_articles_of_site()`.execute(db);
  await db.schema.alterTable('sites').dropColumn('public_base_url').dropColumn('allowed_origins').execute();
}
