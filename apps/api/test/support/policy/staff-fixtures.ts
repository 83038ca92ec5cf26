import type { Db, SiteRole, UserRole } from '@newsroom/domain';
import type { App } from '../../../src/app';
import type { Account } from '../dashboard-accounts';

let counter = 0;

/** A staff user (editor, contributor, reviewer or admin) straight in the database, with a bearer token. */
export async function insertStaff(
  app: App,
  db: Db,
  role: Exclude<UserRole, 'publisher'>,
  options: { email?: string; password?: string } = {},
): Promise<Account> {
  const email =
    options.email ?? `${role}-${++counter}-${Math.random().toString(36).slice(2, 8)}@staff.example`;
  const passwordHash = options.password ? await app.passwords.hash(options.password) : 'no-password';
  const { id } = await db
    .insertInto('users')
    .values({ email, password_hash: passwordHash, role })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id, email, token: app.issueToken({ id }) };
}

export async function grant(db: Db, userId: string, siteId: string, role: SiteRole): Promise<void> {
  await db
    .insertInto('user_site_grants')
    .values({ user_id: userId, site_id: siteId, role })
    .onConflict((oc) => oc.columns(['user_id', 'site_id']).doUpdateSet({ role }))
    .execute();
}

export async function setCreatedBy(db: Db, articleId: string, userId: string): Promise<void> {
  await db.updateTable('articles').set({ created_by: userId }).where('id', '=', articleId).execute();
}
