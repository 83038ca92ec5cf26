import { type Kysely, sql } from 'kysely';

// Frozen in time: Kysely<any>, no application types.
// Staff roles and per-site grants (issue 31). `admin` stays the stored value of the administrator. An editor,
// contributor or reviewer holds grants per site (one role per site); the user's own role is the one it has on
// articles without a host site that it created. Articles remember who created and who submitted them (null for
// the ones from before, and for imports). Users are suspended (disabled_at, as before) or deleted (deleted_at:
// the row stays so the content keeps its history). Invitations and password resets are one-time tokens,
// stored as sha256 hashes, expiring, consumed once.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table users drop constraint users_role_check`.execute(db);
  await sql`alter table users add constraint users_role_check
    check (role in ('admin', 'editor', 'contributor', 'reviewer', 'publisher'))`.execute(db);
  await db.schema
    .alterTable('users')
    .addColumn('deleted_at', 'timestamptz')
    .addColumn('last_sign_in_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('user_site_grants')
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('site_id', 'uuid', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('editor', 'contributor', 'reviewer')`))
    .addPrimaryKeyConstraint('user_site_grants_pkey', ['user_id', 'site_id'])
    .execute();
  await db.schema.createIndex('user_site_grants_site_idx').on('user_site_grants').column('site_id').execute();

  await db.schema
    .alterTable('articles')
    .addColumn('created_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('submitted_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await sql`create index articles_created_by_idx on articles (created_by) where created_by is not null`.execute(
    db,
  );

  await db.schema
    .createTable('invitations')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) =>
      c.notNull().check(sql`role in ('admin', 'editor', 'contributor', 'reviewer')`),
    )
    .addColumn('grants', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('invited_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('password_resets')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('password_resets').execute();
  await db.schema.dropTable('invitations').execute();
  await db.schema.alterTable('articles').dropColumn('submitted_by').dropColumn('created_by').execute();
  await db.schema.dropTable('user_site_grants').execute();
  await db.schema.alterTable('users').dropColumn('last_sign_in_at').dropColumn('deleted_at').execute();
  await sql`delete from users where role not in ('admin', 'publisher')`.execute(db);
  await sql`alter table users drop constraint users_role_check`.execute(db);
  await sql`alter table users add constraint users_role_check check (role in ('admin', 'publisher'))`.execute(
    db,
  );
}
