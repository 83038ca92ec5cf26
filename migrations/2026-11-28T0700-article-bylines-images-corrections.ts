import { type Kysely, sql } from 'kysely';

// Frozen in time: Kysely<any>, no application types.
//
// Articles as a newsroom writes them (issue 32): bylines, a standfirst, image metadata and corrections.
// Every new column has a default or is nullable, so existing articles stay valid (no bylines, no standfirst,
// no image metadata, no corrections). The image URLs stay in `thumbnail` and `image`; their metadata (alt,
// caption, credit, size, focal point) is one jsonb document beside each, null when none was given.
// Lists are jsonb arrays: read whole with the row (client reads serve the article from one row), never
// queried by element except the author filter, which has its own expression index.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table articles
      add column bylines jsonb not null default '[]'::jsonb,
      add column standfirst text,
      add column thumbnail_meta jsonb,
      add column image_meta jsonb,
      add column corrections jsonb not null default '[]'::jsonb`.execute(db);
  // The API bounds them more tightly; the table keeps the shapes whoever writes.
  await sql`
    alter table articles
      add constraint articles_bylines_array check (jsonb_typeof(bylines) = 'array' and jsonb_array_length(bylines) <= 20),
      add constraint articles_standfirst_length check (char_length(standfirst) between 1 and 500),
      add constraint articles_thumbnail_meta_object check (thumbnail_meta is null or jsonb_typeof(thumbnail_meta) = 'object'),
      add constraint articles_image_meta_object check (image_meta is null or jsonb_typeof(image_meta) = 'object'),
      add constraint articles_corrections_array check (jsonb_typeof(corrections) = 'array')`.execute(db);
  // The client lists' author filter (`author=<slug of a byline name>`): the byline names' slugs as an
  // array, matched with && against a GIN index. label_slug is the tags' slug function (same rule).
  await sql`
    create function byline_slugs(bylines jsonb) returns text[]
    language sql immutable strict parallel safe
    as $$ select array(select label_slug(b ->> 'name') from jsonb_array_elements(bylines) as b) $$`.execute(
    db,
  );
  await sql`create index articles_byline_slugs_idx on articles using gin (byline_slugs(bylines))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists articles_byline_slugs_idx`.execute(db);
  await sql`drop function if exists byline_slugs(jsonb)`.execute(db);
  await sql`
    alter table articles
      drop column corrections, drop column image_meta, drop column thumbnail_meta,
      drop column standfirst, drop column bylines`.execute(db);
}
