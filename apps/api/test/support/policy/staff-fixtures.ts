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

/**
 * A scheduled publish of the article a day ahead, alone and in a release of its own: what
 * `/scheduled-actions/{id}` and `/releases/{id}` act on (their scope is the article's).
 */
export async function insertScheduled(
  db: Db,
  articleId: string,
): Promise<{ actionId: string; releaseId: string }> {
  const dueAt = new Date(Date.now() + 86_400_000);
  const action = await db
    .insertInto('scheduled_actions')
    .values({ article_id: articleId, kind: 'publish', due_at: dueAt })
    .returning('id')
    .executeTakeFirstOrThrow();
  const release = await db
    .insertInto('releases')
    .values({ name: 'Matrix release', due_at: dueAt })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('scheduled_actions')
    .values({ article_id: articleId, kind: 'publish', due_at: dueAt, release_id: release.id })
    .execute();
  return { actionId: action.id, releaseId: release.id };
}
