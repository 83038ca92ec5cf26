import jwt from '@fastify/jwt';
import { type Db, findActiveUserById, type User, type UserRole } from '@newsroom/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../http-error';
import { authenticateBySession, sessionTokenOf } from './dashboard-session';
import { assertSecondFactor } from './second-factor';

const issuer = 'newsroom';
const audience = 'newsroom-dashboard';
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * What a dashboard token carries: who, and the user's token version when it was issued (absent in
 * tokens from before versions existed: version 0). Role and state are read fresh on every request.
 */
export interface TokenClaims {
  sub: string;
  ver?: number;
  /** When the token's sign-in passed its second factor (ms since the epoch); absent: never. */
  mfa?: number;
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: TokenClaims;
    user: User;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Signs a dashboard token for `user` (HS256, with exp, iss and aud) at its token version (default 0),
     * carrying when its second factor was verified, if it was.
     */
    issueToken(user: Pick<User, 'id'> & { tokenVersion?: number }, secondFactorAt?: Date): string;
  }
}

/**
 * Dashboard authentication: JWT in `Authorization: Bearer`, algorithm pinned to HS256,
 * issuer, audience and expiry required (RFC 8725; fast-jwt accepts any of them by default).
 */
export const authPlugin = fp(async (app: FastifyInstance) => {
  await app.register(jwt, {
    secret: app.config.jwt.secret,
    sign: { algorithm: 'HS256', expiresIn: app.config.jwt.expiresIn, iss: issuer, aud: audience },
    verify: {
      algorithms: ['HS256'],
      allowedIss: issuer,
      allowedAud: audience,
      requiredClaims: ['exp', 'iss', 'aud', 'sub'],
    },
  });
  app.decorate('issueToken', (user: Pick<User, 'id'> & { tokenVersion?: number }, secondFactorAt?: Date) =>
    app.jwt.sign({
      sub: user.id,
      ver: user.tokenVersion ?? 0,
      ...(secondFactorAt && { mfa: secondFactorAt.getTime() }),
    }),
  );
});

/**
 * The user a verified token speaks for, read fresh, or undefined. A disabled or deleted account's
 * tokens stop working at once, not when they expire; so do tokens issued before the user's last
 * password change or reset (their version is older than the user's).
 */
export async function findTokenUser(db: Db, claims: TokenClaims): Promise<User | undefined> {
  if (typeof claims.sub !== 'string' || !uuidPattern.test(claims.sub)) return undefined;
  const user = await findActiveUserById(db, claims.sub);
  return user && user.tokenVersion === (claims.ver ?? 0) ? user : undefined;
}

/**
 * The authenticated user of the request, loaded fresh, or a 401. A bearer token wins; without an
 * Authorization header the dashboard's session cookie is used (with its CSRF check). Then, for every
 * credential alike, the second-factor check (second-factor.ts): nothing in the request can skip it.
 */
export async function authenticate(request: FastifyRequest): Promise<User> {
  const user = await authenticateCredential(request);
  await assertSecondFactor(request, user);
  return user;
}

async function authenticateCredential(request: FastifyRequest): Promise<User> {
  if (request.headers.authorization === undefined && sessionTokenOf(request)) {
    return authenticateBySession(request);
  }
  let claims: TokenClaims;
  try {
    claims = await request.jwtVerify<TokenClaims>();
  } catch {
    throw new HttpError(401, 'UNAUTHORIZED', 'Missing, invalid or expired token');
  }
  const user = await findTokenUser(request.server.db, claims);
  if (!user) throw new HttpError(401, 'UNAUTHORIZED', 'Missing, invalid or expired token');
  request.user = user;
  request.secondFactorVerifiedAt = typeof claims.mfa === 'number' ? new Date(claims.mfa) : null;
  return user;
}

/**
 * An onRequest hook for a whole route subtree: authenticates, then allows only `role`.
 * Register it once per area (administrator routes, publisher self-service), not per handler.
 */
export function requireRole(role: UserRole) {
  return async function roleGuard(request: FastifyRequest): Promise<void> {
    const user = await authenticate(request);
    if (user.role !== role)
      throw new HttpError(
        403,
        'FORBIDDEN',
        `This route is for ${role === 'admin' ? 'administrators' : 'publishers'}`,
      );
  };
}
