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
