import type { Kysely } from 'kysely';

// Frozen in time: Kysely<any>, no application types.
// The feed item's own date, kept for every imported article whatever its status: a pending item
// has no published_at yet, and approving it later must not lose when the source published it.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('articles').addColumn('source_published_at', 'timestamptz').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('articles').dropColumn('source_published_at').execute();
}
