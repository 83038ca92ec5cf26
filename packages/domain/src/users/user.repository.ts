import { sql } from 'kysely';
import type { DbOrTx } from '../db/create-db';
import type { NewUserRow, UserRole } from '../db/tables';
import type { User } from './user';

const userColumns = ['id', 'email', 'role', 'publisher_id', 'token_version'] as const;

type UserRowFields = {
  id: string;
  email: string;
  role: UserRole;
  publisher_id: string | null;
  token_version: number;
};

function toUser(row: UserRowFields): User {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    publisherId: row.publisher_id,
    tokenVersion: row.token_version,
  };
}

/**
 * The user behind a token, only while it may still act: a disabled login, a disabled publisher
 * or a deleted account yields undefined, so its existing tokens stop working at once.
 */
export async function findActiveUserById(db: DbOrTx, id: string): Promise<User | undefined> {
  const row = await db
    .selectFrom('users')
    .leftJoin('publishers', 'publishers.id', 'users.publisher_id')
    .select(['users.id', 'users.email', 'users.role', 'users.publisher_id', 'users.token_version'])
    .where('users.id', '=', id)
    .where('users.disabled_at', 'is', null)
    .where('users.deleted_at', 'is', null)
    .where('publishers.disabled_at', 'is', null)
    .executeTakeFirst();
  return row && toUser(row);
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
      'users.token_version',
      'users.password_hash',
      'users.disabled_at',
      'users.deleted_at',
      'publishers.disabled_at as publisher_disabled_at',
    ])
    .where(sql`lower(users.email)`, '=', email.toLowerCase())
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    user: toUser(row),
    passwordHash: row.password_hash,
    active: row.disabled_at === null && row.deleted_at === null && row.publisher_disabled_at === null,
  };
}

export async function insertUser(db: DbOrTx, row: NewUserRow): Promise<User> {
  const inserted = await db.insertInto('users').values(row).returning(userColumns).executeTakeFirstOrThrow();
  return toUser(inserted);
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
    .returning(userColumns)
    .executeTakeFirst();
  return inserted && toUser(inserted);
}

export async function updateUserPasswordHash(db: DbOrTx, id: string, passwordHash: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, updated_at: sql`now()` })
    .where('id', '=', id)
    .execute();
}

/** The password hash of a login, by id (the own-password change checks the current one). */
export async function findPasswordHashById(db: DbOrTx, id: string): Promise<string | undefined> {
  const row = await db.selectFrom('users').select('password_hash').where('id', '=', id).executeTakeFirst();
  return row?.password_hash;
}

/**
 * Replaces a login's password and increments its token version, so every token issued before
 * the change is refused from now on. Returns false when no login has this id.
 */
export async function replaceUserPassword(db: DbOrTx, id: string, passwordHash: string): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ password_hash: passwordHash, token_version: sql`token_version + 1`, updated_at: sql`now()` })
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The login of a publisher record (id and e-mail), or undefined when it has none. */
export async function findLoginOfPublisher(
  db: DbOrTx,
  publisherId: string,
): Promise<{ id: string; email: string } | undefined> {
  return db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('publisher_id', '=', publisherId)
    .executeTakeFirst();
}

/** A user's id and e-mail (deleted or not), e.g. to name them in an audit row. */
export async function findUserEmail(db: DbOrTx, id: string): Promise<{ id: string; email: string }> {
  return db.selectFrom('users').select(['id', 'email']).where('id', '=', id).executeTakeFirstOrThrow();
}
