import { type Kysely, sql } from 'kysely';

// Frozen in time: Kysely<any>, no application types.
// Article revisions (issue 30): every write to an article records one row, numbered per article from 1.
// Storage is reverse-delta (as RCS): the newest revision (`kind` 'snapshot') holds the whole snapshot; each
// older one (`kind` 'delta') holds only what differs from the revision after it. `data` is jsonb with lz4
// column compression (as article bodies), so a full snapshot of a news-sized article is compressed by
// Postgres, not by the writer. `status` is the article's status at that revision: published versions are
// kept forever by the retention thinning. Revisions go with their article (on delete cascade).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('article_revisions')
    .addColumn('article_id', 'uuid', (col) => col.notNull().references('articles.id').onDelete('cascade'))
    .addColumn('n', 'integer', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('actor_kind', 'text', (col) => col.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('actor_label', 'text', (col) => col.notNull())
    .addColumn('source', 'text', (col) => col.notNull())
    .addColumn('reason', 'text')
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('data', 'jsonb', (col) => col.notNull())
    .addPrimaryKeyConstraint('article_revisions_pkey', ['article_id', 'n'])
    .execute();
  await sql`alter table article_revisions add constraint article_revisions_actor_kind
    check (actor_kind in ('user', 'feed', 'api-client', 'scheduler', 'system'))`.execute(db);
  await sql`alter table article_revisions add constraint article_revisions_source
    check (source in ('editor', 'autosave', 'api', 'import', 'review', 'bulk', 'schedule', 'restore'))`.execute(
    db,
  );
  await sql`alter table article_revisions add constraint article_revisions_kind
    check (kind in ('snapshot', 'delta'))`.execute(db);
  await sql`alter table article_revisions add constraint article_revisions_reason_length
    check (char_length(reason) between 1 and 500)`.execute(db);
  await sql`
    do $$
    begin
      alter table article_revisions alter column data set compression lz4;
    exception when feature_not_supported then
      raise notice 'this server has no lz4: revision snapshots stay compressed with pglz';
    end
    $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('article_revisions').execute();
}
