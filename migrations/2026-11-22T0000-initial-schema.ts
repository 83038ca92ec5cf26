import { type Kysely, sql } from 'kysely';

// Frozen in time: this file must keep working against the schema as it was when written,
// so it uses Kysely<any> and never imports application types.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('publishers')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('feed_url', 'text')
    .addColumn('default_tags', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('approved', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('auto_approve', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('disabled_at', 'timestamptz')
    .addColumn('etag', 'text')
    .addColumn('last_modified', 'text')
    .addColumn('last_fetched_at', 'timestamptz')
    .addColumn('last_error', 'text')
    .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('admin', 'publisher')`))
    .addColumn('publisher_id', 'uuid', (c) => c.references('publishers.id').onDelete('cascade'))
    .addColumn('disabled_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('users_publisher_role', sql`(role = 'publisher') = (publisher_id is not null)`)
    .execute();
  // E-mail addresses are unique regardless of case: Alice@x.org and alice@x.org are one login.
  await sql`create unique index users_email_lower_key on users (lower(email))`.execute(db);
  await db.schema.createIndex('users_publisher_id_idx').on('users').column('publisher_id').execute();

  await db.schema
    .createTable('sites')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('domain', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('site_api_keys')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('site_id', 'uuid', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'bytea', (c) => c.notNull().unique())
    .addColumn('key_prefix', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('site_api_keys_site_id_idx').on('site_api_keys').column('site_id').execute();

  await db.schema
    .createTable('publisher_default_sites')
    .addColumn('publisher_id', 'uuid', (c) => c.notNull().references('publishers.id').onDelete('cascade'))
    .addColumn('site_id', 'uuid', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('publisher_default_sites_pkey', ['publisher_id', 'site_id'])
    .execute();

  await db.schema
    .createTable('articles')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('body', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('tags', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('category', 'text')
    .addColumn('section', 'text')
    .addColumn('thumbnail', 'text')
    .addColumn('image', 'text')
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('draft', 'pending', 'published', 'rejected')`),
    )
    .addColumn('is_aggregated', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('source', 'text')
    .addColumn('source_url', 'text')
    .addColumn('rss_feed_guid', 'text')
    .addColumn('publisher_id', 'uuid', (c) => c.references('publishers.id').onDelete('set null'))
    .addColumn('published_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('articles_guid_only_when_aggregated', sql`rss_feed_guid is null or is_aggregated`)
    .addCheckConstraint('articles_published_has_date', sql`status <> 'published' or published_at is not null`)
    .execute();

  // Feed guids are only unique inside one feed ("123" is a fine guid for two publishers),
  // so the duplicate guard is scoped per publisher. The predicate must be repeated literally
  // in every ON CONFLICT that relies on this index.
  await sql`create unique index articles_publisher_guid_key on articles (publisher_id, rss_feed_guid)
    where rss_feed_guid is not null`.execute(db);
  // Read paths: published listings newest first (all, aggregated), dashboard by status, tags, reports.
  await sql`create index articles_published_idx on articles (published_at desc, id desc)
    where status = 'published'`.execute(db);
  await sql`create index articles_aggregated_published_idx on articles (published_at desc, id desc)
    where status = 'published' and is_aggregated`.execute(db);
  await sql`create index articles_status_created_idx on articles (status, created_at desc, id desc)`.execute(
    db,
  );
  await sql`create index articles_publisher_created_idx on articles (publisher_id, created_at)`.execute(db);
  await sql`create index articles_tags_idx on articles using gin (tags)`.execute(db);

  await db.schema
    .createTable('article_sites')
    .addColumn('article_id', 'uuid', (c) => c.notNull().references('articles.id').onDelete('cascade'))
    .addColumn('site_id', 'uuid', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('article_sites_pkey', ['article_id', 'site_id'])
    .execute();
  await db.schema
    .createIndex('article_sites_site_idx')
    .on('article_sites')
    .columns(['site_id', 'article_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'article_sites',
    'articles',
    'publisher_default_sites',
    'site_api_keys',
    'sites',
    'users',
    'publishers',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
