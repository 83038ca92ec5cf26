import { type User, verifyCredentials } from '@newsroom/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { recordAudit } from '../../audit/audit.plugin';
import { HttpError } from '../../http-error';
import type { UserBody } from '../../schemas/auth.schema';

export const toUserBody = (user: User): UserBody => ({
  id: user.id,
  email: user.email,
  role: user.role,
  ...(user.publisherId !== null && { publisherId: user.publisherId }),
});

/**
 * The e-mail and password check behind both logins (bearer token and cookie session): the same
 * brute-force limiter (its counters live in Redis, so every route and replica shares them) and the
 * same errors. A valid device cookie of this e-mail is counted per device rather than under the
 * e-mail's ceiling. Resolves to the user, or throws 401 / 429 / 503. The route then gives the browser
 * a fresh device cookie (`app.deviceCookies.remember`), after its own cookies.
 */
export function passwordLogin(app: FastifyInstance) {
  return async (request: FastifyRequest, credentials: { email: string; password: string }): Promise<User> => {
    const device = app.deviceCookies.deviceOf(request, credentials.email);
    // Audited as they happen (never the password): the e-mail tried is the anonymous actor's label.
    const tried = { type: 'anonymous', id: null, label: credentials.email.slice(0, 254) } as const;
    const attempt = await app.loginLimiter
      .reserve(credentials.email, request.ip, device)
      .catch(async (error) => {
        if ((error as { statusCode?: number }).statusCode === 429)
          await recordAudit(request, {
            action: 'logInLockedOut',
            objectType: 'user',
            objectId: null,
            actor: tried,
          });
        throw error;
      });
    const user = await verifyCredentials(app.db, app.passwords, credentials);
    if (!user) {
      await recordAudit(request, { action: 'logInFailed', objectType: 'user', objectId: null, actor: tried });
      throw new HttpError(401, 'INVALID_CREDENTIALS', 'Wrong e-mail or password');
    }
    const actor = {
      type: user.role === 'publisher' ? 'publisher' : 'user',
      id: user.id,
      label: user.email,
    } as const;
    await recordAudit(request, { action: 'logIn', objectType: 'user', objectId: user.id, actor });
    // The login stands even if Redis fails now; the e-mail's counter then just ages out.
    await app.loginLimiter
      .succeeded(attempt)
      .catch((err) => request.log.warn({ err }, 'could not reset login attempts'));
    return user;
  };
}
