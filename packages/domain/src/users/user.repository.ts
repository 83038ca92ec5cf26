import { sql } from 'kysely';
import type { DbOrTx } from '../db/create-db';
import type { NewUserRow, UserRole } from '../db/tables';
import type { User } from './user';

/**
 * The user behind a token, only while it may still act: a disabled login, a disabled publisher
 * or a deleted account yields undefined, so its existing tokens stop working at once.
 */
export async function findActiveUserById(db: DbOrTx, id: string): Promise<User | undefined> {
  const row = await db
    .selectFrom('users')
    .leftJoin('publishers', 'publishers.id', 'users.publisher_id')
    .select(['users.id', 'users.email', 'users.role', 'users.publisher_id'])
    .where('users.id', '=', id)
    .where('users.disabled_at', 'is', null)
    .where('publishers.disabled_at', 'is', null)
    .executeTakeFirst();
  return row && { id: row.id, email: row.email, role: row.role, publisherId: row.publisher_id };
}

/** A login as the password check needs it: the user, its hash, and whether it may log in now. */
export interface LoginRecord {
  user: User;
  passwordHash: string;
  /** false when the login or its publisher is disabled. */
  active: boolean;
}

/** The login with this e-mail, compared case-insensitively (the unique index is on lower(email)). */
export async function findLoginByEmail(db: DbOrTx, email: string): Promise<LoginRecord | undefined> {
  const row = await db
    .selectFrom('users')
    .leftJoin('publishers', 'publishers.id', 'users.publisher_id')
    .select([
      'users.id',
      'users.email',
      'users.role',
      'users.publisher_id',
      'users.password_hash',
      'users.disabled_at',
      'publishers.disabled_at as publisher_disabled_at',
    ])
    .where(sql`lower(users.email)`, '=', email.toLowerCase())
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    user: { id: row.id, email: row.email, role: row.role, publisherId: row.publisher_id },
    passwordHash: row.password_hash,
    active: row.disabled_at === null && row.publisher_disabled_at === null,
  };
}

export async function insertUser(db: DbOrTx, row: NewUserRow): Promise<User> {
  const inserted = await db
    .insertInto('users')
    .values(row)
    .returning(['id', 'email', 'role', 'publisher_id'])
    .executeTakeFirstOrThrow();
  return { id: inserted.id, email: inserted.email, role: inserted.role, publisherId: inserted.publisher_id };
}

/**
 * Inserts a login unless one with the same e-mail (any case) exists; returns undefined then.
 * Safe against a concurrent insert of the same e-mail (two API replicas starting at once).
 */
export async function insertUserIfEmailFree(
  db: DbOrTx,
  row: NewUserRow & { role: UserRole },
): Promise<User | undefined> {
  const inserted = await db
    .insertInto('users')
    .values(row)
    .onConflict((oc) => oc.expression(sql`lower(email)`).doNothing())
    .returning(['id', 'email', 'role', 'publisher_id'])
    .executeTakeFirst();
  return (
    inserted && {
      id: inserted.id,
      email: inserted.email,
      role: inserted.role,
      publisherId: inserted.publisher_id,
    }
  );
}

export async function updateUserPasswordHash(db: DbOrTx, id: string, passwordHash: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, updated_at: sql`now()` })
    .where('id', '=', id)
    .execute();
}
