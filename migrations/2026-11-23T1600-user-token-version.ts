import type { Kysely } from 'kysely';

// Frozen in time: Kysely<any>, no application types.
// A dashboard token carries the token version its user had when it was issued; changing or resetting
// the password increments the version, so every token issued before the change stops working.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('token_version', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('token_version').execute();
}
