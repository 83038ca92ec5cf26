import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { completeSecondFactorChallenge, startDashboardSession, type User } from '@newsroom/domain';
import type { FastifyRequest } from 'fastify';
import { recordAudit } from '../../audit/audit.plugin';
import { LoginResponseSchema, SessionResponseSchema } from '../../schemas/auth.schema';
import { errorResponses } from '../../schemas/error.schema';
import { SecondFactorBodySchema } from '../../schemas/two-factor.schema';
import { toUserBody } from './password-login';
import { codeRefusal } from './second-factor-step';

const tags = ['auth'];
const description =
  'The second step of a sign-in whose password was right and whose user has two-factor authentication (the first step answered 202 with a challengeToken). The code is a 6-digit TOTP code or an unused recovery code (used up). A code whose time step was already used is refused (401 SECOND_FACTOR_CODE_USED). Each challenge takes 5 codes and lives 5 minutes (then 401 SECOND_FACTOR_CHALLENGE_INVALID: sign in with the password again); every 5th consecutive wrong code of a user locks its code checks for 15 minutes, doubling up to a day (429 TOO_MANY_SECOND_FACTOR_ATTEMPTS with Retry-After).';

/** The second step of both sign-ins (bearer token and cookie session). Prefix: /api/v1/auth. */
export const secondFactorRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/login/2fa',
    {
      bodyLimit: 4096,
      // One row per attempt, written here: the outcome decides what it says.
      config: { audit: 'explicit' },
      schema: {
        tags,
        summary: 'Complete a token login with a second-factor code',
        description,
        security: [],
        body: SecondFactorBodySchema,
        response: { 200: LoginResponseSchema, ...errorResponses(400, 401, 409, 413, 429) },
      },
    },
    async (request) => {
      const now = app.secondFactorClock.now();
      const user = await completeSecondStep(request, request.body, 'token', now);
      return { token: app.issueToken(user, now), user: toUserBody(user) };
    },
  );

  app.post(
    '/session/2fa',
    {
      bodyLimit: 4096,
      // One row per attempt, written here: the outcome decides what it says.
      config: { audit: 'explicit' },
      schema: {
        tags,
        summary: 'Complete a dashboard sign-in with a second-factor code: sets the session cookie',
        description,
        security: [],
        body: SecondFactorBodySchema,
        response: { 200: SessionResponseSchema, ...errorResponses(400, 401, 409, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      const now = app.secondFactorClock.now();
      const user = await completeSecondStep(request, request.body, 'session', now);
      const session = await startDashboardSession(app.db, user, app.config.session, now, now);
      app.setSessionCookie(reply, session.token, session.expiresAt);
      return { user: toUserBody(user), csrfToken: app.csrfTokenOf(session.token) };
    },
  );
};

/**
 * The code checked against the challenge (one audit row per attempt, never the code): the user signed in, or the
 * refusal thrown.
 */
async function completeSecondStep(
  request: FastifyRequest,
  { challengeToken, code }: { challengeToken: string; code: string },
  kind: 'token' | 'session',
  now: Date,
): Promise<User> {
  const app = request.server;
  const result = await completeSecondFactorChallenge(app.db, app.secretBox, challengeToken, kind, code, now);
  if (result.outcome !== 'verified') {
    await recordAudit(request, { action: 'logInSecondFactorFailed', objectType: 'user', objectId: null });
    throw codeRefusal(result, now);
  }
  await recordAudit(request, {
    action: 'logInSecondFactor',
    objectType: 'user',
    objectId: result.user.id,
    actor: { type: 'user', id: result.user.id, label: result.user.email },
  });
  return result.user;
}
