import { type Kysely, sql } from 'kysely';

// Frozen in time: Kysely<any>, no application types.
// Issue 30, revisions at <= 10 % overhead: a write stores its revision whole and leaves the previous newest
// as it is; turning that one into a reverse delta is deferred to the worker. This table is its queue: one
// row per article with a whole snapshot below its newest revision, written in the revision's statement,
// claimed with FOR UPDATE SKIP LOCKED (safe with any number of worker replicas), deleted once compacted.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('article_revision_compactions')
    .addColumn('article_id', 'uuid', (col) => col.primaryKey().references('articles.id').onDelete('cascade'))
    .addColumn('due_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('article_revision_compactions_due_at')
    .on('article_revision_compactions')
    .column('due_at')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('article_revision_compactions').execute();
}
