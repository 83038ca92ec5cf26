import { type Kysely, sql } from 'kysely';

// Frozen in time: Kysely<any>, no application types.
// Cookie sessions of the dashboard. The cookie carries a random token; only its SHA-256 is stored,
// so a copy of this table opens no session. Deleting a row ends the session at once.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('dashboard_sessions')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('token_hash', 'bytea', (c) => c.notNull().unique())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`create index dashboard_sessions_user_idx on dashboard_sessions (user_id)`.execute(db);
  await sql`create index dashboard_sessions_expires_idx on dashboard_sessions (expires_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('dashboard_sessions').execute();
}
