import { sql } from 'kysely';
import type { DbOrTx } from '../db/create-db';
import type { UserRole } from '../db/tables';
import { NotFoundError } from '../errors';

/** What the Account view shows and edits of a user; the display name is the byline of the user's articles. */
export interface Profile {
  id: string;
  email: string;
  role: UserRole;
  displayName: string | null;
}

export async function getProfile(db: DbOrTx, userId: string): Promise<Profile> {
  const row = await db
    .selectFrom('users')
    .select(['id', 'email', 'role', 'display_name'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!row) throw new NotFoundError('user', userId);
  return { id: row.id, email: row.email, role: row.role, displayName: row.display_name };
}

/** Sets (or with null / blank, clears) the display name; surrounding spaces are dropped. */
export async function updateProfile(
  db: DbOrTx,
  userId: string,
  changes: { displayName: string | null },
): Promise<Profile> {
  const trimmed = changes.displayName?.trim() ?? '';
  await db
    .updateTable('users')
    .set({ display_name: trimmed === '' ? null : trimmed, updated_at: sql`now()` })
    .where('id', '=', userId)
    .execute();
  return getProfile(db, userId);
}
