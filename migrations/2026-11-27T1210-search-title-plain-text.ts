import { type Kysely, sql } from 'kysely';

// Frozen in time: Kysely<any>, no application types.
// A title is plain text, but the text search parser reads `<script>` as the start of a tag and drops the
// words after it, and `&amp;` as an entity: the title's `<`, `>` and `&` are read as spaces for its vector
// (the body is HTML, and stays read as HTML). Only the vectors of titles holding one of them change; they are
// written directly, so no article row is touched (no change-feed entry, no webhook).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create or replace function articles_search_vector() returns trigger
    language plpgsql
    as $$
    declare
      config regconfig;
    begin
      select language into config from search_settings;
      new.search_vector :=
        setweight(to_tsvector(config, translate(coalesce(new.title, ''), '<>&', '   ')), 'A') ||
        setweight(to_tsvector(config, left(coalesce(new.body, ''), 100000)), 'B');
      return new;
    end
    $$`.execute(db);
  await sql`
    update articles set search_vector =
      setweight(to_tsvector((select language from search_settings), translate(title, '<>&', '   ')), 'A') ||
      setweight(to_tsvector((select language from search_settings), left(body, 100000)), 'B')
    where title ~ '[<>&]'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    create or replace function articles_search_vector() returns trigger
    language plpgsql
    as $$
    declare
      config regconfig;
    begin
      select language into config from search_settings;
      new.search_vector :=
        setweight(to_tsvector(config, coalesce(new.title, '')), 'A') ||
        setweight(to_tsvector(config, left(coalesce(new.body, ''), 100000)), 'B');
      return new;
    end
    $$`.execute(db);
}
