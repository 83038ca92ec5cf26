import { type Kysely, sql } from 'kysely';

// Frozen in time: Kysely<any>, no application types.
// Issue 29, preview links: a random token (stored only as its sha256 digest) that lets anyone holding it read one
// article, published or not, through GET /api/v1/client/preview/:token, until it expires or is revoked.
// - token_hash: unique, so the lookup is one index probe by digest (never a comparison of secrets in code).
// - pinned_article: when the link was pinned, the client article (JSON, as the domain's PublishedArticle) frozen at
//   that moment; null: the link follows the article's current saved state.
// - created_by: kept when the user is deleted (set null), so the list still shows the link.
// Not a client-visible table (no list, feed, sitemap or change feed reads it), so no NOTIFY trigger: every preview
// read looks its token up in Postgres (no cache), which is what makes revocation and expiry hold on every replica.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('article_preview_links')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('article_id', 'uuid', (c) => c.notNull().references('articles.id').onDelete('cascade'))
    .addColumn('token_hash', 'bytea', (c) => c.notNull().unique())
    .addColumn('token_prefix', 'text', (c) => c.notNull())
    .addColumn('created_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('pinned_article', 'jsonb')
    .addCheckConstraint('article_preview_links_expiry_check', sql`expires_at > created_at`)
    .execute();
  await db.schema
    .createIndex('article_preview_links_article_idx')
    .on('article_preview_links')
    .columns(['article_id', 'expires_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('article_preview_links').execute();
}
