import { createHash, randomBytes } from 'node:crypto';
import type { DbOrTx } from '../../db/create-db';
import type { User } from '../user';
import {
  type DashboardSessionRecord,
  deleteDashboardSessionByHash,
  deleteDashboardSessionsOfUser,
  deleteExpiredDashboardSessions,
  findLiveDashboardSession,
  insertDashboardSession,
  touchDashboardSession,
} from './dashboard-session.repository';

/** How long a dashboard session lives: at most `maxAgeMs` after sign-in, and `idleMs` after its last use. */
export interface SessionLifetime {
  idleMs: number;
  maxAgeMs: number;
}

/**
 * last_seen_at is written at most this often per session: the idle timeout is then exact to within
 * a minute, and a burst of dashboard requests costs one UPDATE, not one each.
 */
export const sessionTouchIntervalMs = 60_000;

/** 32 random bytes (256 bits), base64url: the cookie's value. */
const newSessionToken = () => randomBytes(32).toString('base64url');
const hashOf = (token: string) => createHash('sha256').update(token).digest();

/** A started session: the token goes into the cookie and nowhere else (only its hash is stored). */
export interface StartedSession {
  token: string;
  id: string;
  expiresAt: Date;
}

/**
 * Starts a session for `user` (after its password was checked, and its second factor when it has one:
 * `secondFactorAt`) and clears expired sessions.
 */
export async function startDashboardSession(
  db: DbOrTx,
  user: Pick<User, 'id'>,
  lifetime: SessionLifetime,
  now: Date = new Date(),
  secondFactorAt: Date | null = null,
): Promise<StartedSession> {
  await deleteExpiredDashboardSessions(db, user.id, new Date(now.getTime() - lifetime.idleMs));
  const token = newSessionToken();
  const expiresAt = new Date(now.getTime() + lifetime.maxAgeMs);
  const id = await insertDashboardSession(db, {
    tokenHash: hashOf(token),
    userId: user.id,
    expiresAt,
    secondFactorAt,
  });
  return { token, id, expiresAt };
}

/**
 * The live session of a cookie's token, with its user read fresh (a disabled login or publisher has
 * none), or undefined. Each use pushes the idle timeout back.
 */
export async function resumeDashboardSession(
  db: DbOrTx,
  token: string,
  lifetime: SessionLifetime,
  now: Date = new Date(),
): Promise<DashboardSessionRecord | undefined> {
  if (token.length === 0 || token.length > 200) return undefined;
  const session = await findLiveDashboardSession(
    db,
    hashOf(token),
    new Date(now.getTime() - lifetime.idleMs),
  );
  if (session && now.getTime() - session.lastSeenAt.getTime() >= sessionTouchIntervalMs) {
    await touchDashboardSession(db, session.id);
  }
  return session;
}

/** Ends the session of a cookie's token (sign-out); a copy of the cookie opens nothing afterwards. */
export async function endDashboardSession(db: DbOrTx, token: string): Promise<boolean> {
  return deleteDashboardSessionByHash(db, hashOf(token));
}

/**
 * Ends every dashboard session of a login, e.g. after its password changed, but `keepSessionId` (the
 * session that changed it). Returns how many.
 */
export function endDashboardSessionsOfUser(
  db: DbOrTx,
  userId: string,
  keepSessionId?: string,
): Promise<number> {
  return deleteDashboardSessionsOfUser(db, userId, keepSessionId);
}

export type { DashboardSessionRecord };
