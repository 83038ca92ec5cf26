import type { DbOrTx } from '../db/create-db';

/** A staff user an article may be credited to: the id and the name printed in the byline, nothing else. */
export interface BylinePerson {
  id: string;
  name: string;
}

/**
 * Staff users who have set a display name (their byline), deleted and suspended ones left out, by name. What
 * any writer may read (the byline picker), so it carries no e-mail, role or grants.
 */
export async function findBylinePeople(db: DbOrTx): Promise<BylinePerson[]> {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'display_name'])
    .where('role', '!=', 'publisher')
    .where('deleted_at', 'is', null)
    .where('disabled_at', 'is', null)
    .where('display_name', 'is not', null)
    .orderBy('display_name')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ id: row.id, name: row.display_name as string }));
}

/**
 * Which of `ids` are staff accounts (any but a publisher's; suspended and deleted ones included, so an article
 * keeps crediting a former colleague): what a byline's `userId` must name.
 */
export async function findStaffUserIds(db: DbOrTx, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where('id', 'in', [...ids])
    .where('role', '!=', 'publisher')
    .execute();
  return new Set(rows.map((row) => row.id));
}
