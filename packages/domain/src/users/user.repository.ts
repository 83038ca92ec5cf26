import type { DbOrTx } from '../db/create-db';
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
