import { createSecretBox, isStaff, type SecretBox, secondFactorStanding, type User } from '@newsroom/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../http-error';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * When the credential of the request (a token's `mfa` claim, a session's second_factor_at) had its second
     * factor verified; null: never. Set only by the authentication functions, never from request input.
     */
    secondFactorVerifiedAt: Date | null;
  }
  interface FastifyInstance {
    /** Seals TOTP secrets for storage (a key derived from JWT_SECRET). */
    secretBox: SecretBox;
    /**
     * The clock TOTP time steps, challenges and lockouts are read from: the system's, replaced only by tests
     * (a controllable clock: time steps are chosen, never waited for).
     */
    secondFactorClock: { now(): Date };
  }
  interface FastifyContextConfig {
    /**
     * Declared by a route, never by a request: the route stays open to a staff user whom the policy requires to
     * enrol in two-factor authentication and who has not yet (the enrolment routes, /auth/me, GET /auth/session).
     * It never opens a route to a credential that skipped the second step of a user who has one.
     */
    beforeTwoFactorEnrolment?: boolean;
  }
}

export const secondFactorPlugin = fp(async (app: FastifyInstance) => {
  app.decorate('secretBox', createSecretBox(app.config.jwt.secret));
  app.decorate('secondFactorClock', { now: () => new Date() });
  app.decorateRequest('secondFactorVerifiedAt', null);
});

/**
 * The second-factor check of every authenticated request (called by `authenticate` and the queue dashboard's
 * guard, the two ways in): a user with TOTP needs a credential whose second factor was verified since the
 * enrolment (401 SECOND_FACTOR_REQUIRED: sign in again); a staff user without TOTP while the policy requires one
 * gets 403 TWO_FACTOR_REQUIRED, except on the routes that declare `beforeTwoFactorEnrolment`.
 */
export async function assertSecondFactor(request: FastifyRequest, user: User): Promise<void> {
  const standing = await secondFactorStanding(request.server.db, user, request.secondFactorVerifiedAt);
  if (standing === 'unverified') {
    throw new HttpError(401, 'SECOND_FACTOR_REQUIRED', 'Sign in again with your second factor');
  }
  if (standing === 'enrolment-required' && request.routeOptions.config?.beforeTwoFactorEnrolment !== true) {
    throw new HttpError(
      403,
      'TWO_FACTOR_REQUIRED',
      'Administrators must turn on two-factor authentication first (Account → Two-factor)',
    );
  }
}

/** A route guard after `authenticate`: staff only (publisher logins have no second factor). */
export function assertStaff(user: User): void {
  if (!isStaff(user)) throw new HttpError(403, 'FORBIDDEN', 'This route is for staff users');
}
