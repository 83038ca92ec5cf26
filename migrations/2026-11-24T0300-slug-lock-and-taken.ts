import { type Kysely, sql } from 'kysely';

// Frozen in time: Kysely<any>, no application types.
// Slug allocation in one round trip instead of two: take the transaction-level advisory lock of each slug
// base (the bases given sorted and distinct, so two writers lock in the same order), then return the slugs
// in use among each base and its numbered variants. VOLATILE on purpose: each statement of a volatile SQL
// function runs with a fresh snapshot, so the second one sees every article committed by a writer that held
// one of the locks until now (within one statement, the snapshot would predate the wait for the lock).
// The range [base, base || '.') holds exactly `base` and `base-...` (slugs are [a-z0-9-]), read through
// articles_slug_pattern_idx (text_pattern_ops); OFFSET 0 keeps the lateral subquery a per-base index range
// scan rather than a join the planner costs as a scan of every article.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function lock_slug_bases_find_taken(sorted_bases text[]) returns setof text
    language sql volatile as $$
      select pg_advisory_xact_lock(hashtextextended('slug:' || base, 0)) from unnest(sorted_bases) as base;
      select a.slug from unnest(sorted_bases) as b(base)
      cross join lateral (
        select slug from articles where slug ~>=~ b.base and slug ~<~ (b.base || '.') offset 0
      ) as a;
    $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function if exists lock_slug_bases_find_taken(text[])`.execute(db);
}
