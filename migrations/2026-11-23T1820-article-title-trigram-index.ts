import { type Kysely, sql } from 'kysely';

// Frozen in time: Kysely<any>, no application types.
// The dashboard's title search (`title ILIKE '%text%'`) scanned every article: 72 ms at 50,000 articles on
// the shared test machine. A pg_trgm GIN index serves ILIKE with inner wildcards. pg_trgm ships with
// Postgres (contrib) and is a trusted extension (a database owner may create it); where it cannot be
// created the search keeps working as a scan, and a notice says so.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    do $$
    begin
      create extension if not exists pg_trgm;
      create index articles_title_trgm_idx on articles using gin (title gin_trgm_ops);
    exception when others then
      raise notice 'pg_trgm unavailable (%): the title search scans the table', sqlerrm;
    end
    $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists articles_title_trgm_idx`.execute(db);
}
