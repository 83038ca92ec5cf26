import { type Kysely, sql } from 'kysely';

// Frozen in time: Kysely<any>, no application types.
// The dashboard's article list (GET /api/v1/article) filters by status, site, origin, publisher, tag and title
// text, newest first, and counts per status under the same filters:
// 1. Newest first over every status (no status filter) had no index to walk, so each page sorted the whole
//    table: (created_at desc, id desc) serves it as an index scan that stops after the page.
// 2. The tag filter is exact but case-insensitive; tags keep their case, so the GIN index on tags cannot
//    serve it. An immutable function gives their lower-case form, and a GIN index on it serves
//    `article_tags_lower(tags) @> array[lower($1)]` (queries must repeat that expression).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index articles_created_idx on articles (created_at desc, id desc)`.execute(db);
  await sql`
    create function article_tags_lower(tags text[]) returns text[]
    language sql immutable strict parallel safe
    as $$ select array(select lower(tag) from unnest(tags) as tag) $$`.execute(db);
  await sql`create index articles_tags_lower_idx on articles using gin (article_tags_lower(tags))`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists articles_tags_lower_idx`.execute(db);
  await sql`drop function if exists article_tags_lower(text[])`.execute(db);
  await sql`drop index if exists articles_created_idx`.execute(db);
}
