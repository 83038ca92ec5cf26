import { sql } from 'kysely';
import type { DbOrTx } from '../db/create-db';
import type { SiteRole, UserRole } from '../db/tables';

/** A staff user as the Team view lists it. */
export interface TeamMember {
  id: string;
  email: string;
  /** The name the user gave itself (Account view), or null. */
  displayName: string | null;
  role: Exclude<UserRole, 'publisher'>;
  grants: { siteId: string; siteSlug: string; role: SiteRole }[];
  suspended: boolean;
  lastSignInAt: Date | null;
  /** Whether the user signs in with a second factor (a confirmed TOTP authenticator). */
  twoFactor: boolean;
  createdAt: Date;
}

/** Every staff user (publishers are their own kind of account), deleted ones left out, by e-mail. */
export async function findTeamMembers(db: DbOrTx, id?: string): Promise<TeamMember[]> {
  let query = db
    .selectFrom('users')
    .select([
      'users.id',
      'users.email',
      'users.display_name',
      'users.role',
      'users.disabled_at',
      'users.last_sign_in_at',
      'users.created_at',
    ])
    .select((eb) =>
      eb
        .selectFrom('user_site_grants')
        .innerJoin('sites', 'sites.id', 'user_site_grants.site_id')
        .select(
          sql<{ siteId: string; siteSlug: string; role: SiteRole }[]>`coalesce(json_agg(json_build_object(
            'siteId', sites.id, 'siteSlug', sites.slug, 'role', user_site_grants.role) order by sites.slug), '[]')`.as(
            'grants',
          ),
        )
        .whereRef('user_site_grants.user_id', '=', 'users.id')
        .as('grants'),
    )
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('user_totp')
            .select('user_totp.user_id')
            .whereRef('user_totp.user_id', '=', 'users.id')
            .where('user_totp.confirmed_at', 'is not', null),
        )
        .as('two_factor'),
    )
    .where('users.role', '<>', 'publisher')
    .where('users.deleted_at', 'is', null)
    .orderBy('users.email');
  if (id !== undefined) query = query.where('users.id', '=', id);
  const rows = await query.execute();
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    displayName: row.display_name,
    role: row.role as Exclude<UserRole, 'publisher'>,
    grants: row.grants ?? [],
    suspended: row.disabled_at !== null,
    lastSignInAt: row.last_sign_in_at,
    twoFactor: Boolean(row.two_factor),
    createdAt: row.created_at,
  }));
}

/** The staff user's role and whether it is live, locked for the change (FOR UPDATE). */
export async function lockStaffUser(
  db: DbOrTx,
  id: string,
): Promise<{ role: UserRole; disabled: boolean } | undefined> {
  const row = await db
    .selectFrom('users')
    .select(['role', 'disabled_at'])
    .where('id', '=', id)
    .where('role', '<>', 'publisher')
    .where('deleted_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
  return row && { role: row.role, disabled: row.disabled_at !== null };
}

/** How many live administrators there are besides `exceptId` (locked: two demotions cannot race). */
export async function countOtherLiveAdministrators(db: DbOrTx, exceptId: string): Promise<number> {
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where('role', '=', 'admin')
    .where('id', '<>', exceptId)
    .where('disabled_at', 'is', null)
    .where('deleted_at', 'is', null)
    .forUpdate()
    .execute();
  return rows.length;
}

export async function replaceGrants(
  db: DbOrTx,
  userId: string,
  grants: readonly { siteId: string; role: SiteRole }[],
): Promise<void> {
  await db.deleteFrom('user_site_grants').where('user_id', '=', userId).execute();
  if (grants.length === 0) return;
  await db
    .insertInto('user_site_grants')
    .values(grants.map((grant) => ({ user_id: userId, site_id: grant.siteId, role: grant.role })))
    .execute();
}

export async function updateUserRole(db: DbOrTx, id: string, role: UserRole): Promise<void> {
  await db.updateTable('users').set({ role, updated_at: sql`now()` }).where('id', '=', id).execute();
}

/** Suspends (now) or reinstates (null) a login; a suspended one's tokens are refused at once. */
export async function setUserDisabledAt(db: DbOrTx, id: string, at: Date | null): Promise<void> {
  await db
    .updateTable('users')
    .set({ disabled_at: at, updated_at: sql`now()` })
    .where('id', '=', id)
    .execute();
}

/** Deletes a login for good but keeps the row (content and history point at it); its tokens end. */
export async function markUserDeleted(db: DbOrTx, id: string): Promise<void> {
  await db
    .updateTable('users')
    .set({
      deleted_at: sql`now()`,
      disabled_at: sql`coalesce(disabled_at, now())`,
      token_version: sql`token_version + 1`,
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .execute();
  await db.deleteFrom('user_site_grants').where('user_id', '=', id).execute();
}

/** Remembers a sign-in (the Team view's "last sign-in"). */
export async function recordSignIn(db: DbOrTx, id: string): Promise<void> {
  await db.updateTable('users').set({ last_sign_in_at: sql`now()` }).where('id', '=', id).execute();
}

/** Which of these site ids exist. */
export async function findKnownSiteIds(db: DbOrTx, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('sites')
    .select('id')
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Set(rows.map((row) => row.id));
}
