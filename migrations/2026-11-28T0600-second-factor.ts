import { type Kysely, sql } from 'kysely';

// Frozen in time: Kysely<any>, no application types.
// Issue 31, a second factor for staff and the Account view:
// 1. users.display_name: the name shown as a byline (1..100 characters; null: none set).
// 2. user_totp: one TOTP (RFC 6238) enrolment per user. The secret is stored encrypted (AES-256-GCM, the key
//    derived from JWT_SECRET in the API); confirmed_at null = an enrolment started but not yet confirmed with a
//    code. last_used_step: the time step of the last accepted code (a code at or before it is a replay).
//    failed_attempts / locked_until: the per-user lockout of the second step (reset by a success).
// 3. user_recovery_codes: single-use recovery codes, SHA-256 of the normalised code only (80 random bits each).
// 4. second_factor_challenges: a half-verified sign-in (password checked, second factor not yet). Only the
//    SHA-256 of its token is stored; it is accepted by POST /auth/{login,session}/2fa and nothing else.
// 5. dashboard_sessions.second_factor_at: when the session's second factor was verified (null: never).
// 6. security_settings: one row of security policy editable by administrators (require 2FA for administrators).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('display_name', 'text', (c) => c.check(sql`char_length(display_name) between 1 and 100`))
    .execute();
  await db.schema
    .createTable('user_totp')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('secret_encrypted', 'bytea', (c) => c.notNull())
    .addColumn('confirmed_at', 'timestamptz')
    .addColumn('last_used_step', 'bigint')
    .addColumn('failed_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('user_recovery_codes')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'bytea', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('user_recovery_codes_user_code_unique', ['user_id', 'code_hash'])
    .execute();
  await db.schema
    .createTable('second_factor_challenges')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('token_hash', 'bytea', (c) => c.notNull().unique())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('token', 'session')`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('second_factor_challenges_user_idx')
    .on('second_factor_challenges')
    .column('user_id')
    .execute();
  await db.schema.alterTable('dashboard_sessions').addColumn('second_factor_at', 'timestamptz').execute();
  await db.schema
    .createTable('security_settings')
    .addColumn('id', 'boolean', (c) => c.primaryKey().defaultTo(true).check(sql`id`))
    .addColumn('require_admin_two_factor', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await sql`insert into security_settings (id) values (true)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('security_settings').execute();
  await db.schema.alterTable('dashboard_sessions').dropColumn('second_factor_at').execute();
  await db.schema.dropTable('second_factor_challenges').execute();
  await db.schema.dropTable('user_recovery_codes').execute();
  await db.schema.dropTable('user_totp').execute();
  await db.schema.alterTable('users').dropColumn('display_name').execute();
}
