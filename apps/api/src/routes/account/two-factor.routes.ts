import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  checkSecondFactorCode,
  confirmTotpEnrolment,
  disableTwoFactor,
  getTwoFactorStatus,
  markDashboardSessionSecondFactor,
  regenerateRecoveryCodes,
  startTotpEnrolment,
  verifyOwnPassword,
} from '@newsroom/domain';
import { Type } from 'typebox';
import { HttpError } from '../../http-error';
import { assertStaff } from '../../plugins/second-factor';
import { errorResponses } from '../../schemas/error.schema';
import {
  DisableTwoFactorBodySchema,
  RecoveryCodesSchema,
  TotpCodeBodySchema,
  TotpConfirmResponseSchema,
  TotpSetupSchema,
  TwoFactorStatusSchema,
} from '../../schemas/two-factor.schema';
import { codeRefusal } from '../auth/second-factor-step';

const tags = ['account'];
const security = [{ bearerAuth: [] }];
// Enrolment stays open to an administrator the policy sends to enrol (everything else answers 403 then).
const enrolment = { beforeTwoFactorEnrolment: true };

const confirmRefusal = {
  'wrong-code': new HttpError(400, 'INVALID_SECOND_FACTOR_CODE', 'Wrong code: check the time on your phone'),
  'not-started': new HttpError(
    409,
    'TWO_FACTOR_NOT_STARTED',
    'Start the enrolment first (POST /account/2fa/setup)',
  ),
  'already-enabled': new HttpError(
    409,
    'TWO_FACTOR_ALREADY_ENABLED',
    'Two-factor authentication is already on',
  ),
};

/**
 * Two-factor authentication of the signed-in staff user (TOTP, RFC 6238, and recovery codes).
 * Prefix: /api/v1/account/2fa; authenticated by the account subtree's hook.
 */
export const twoFactorRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('preHandler', async (request) => assertStaff(request.user));

  app.get(
    '',
    {
      config: enrolment,
      schema: {
        tags,
        summary: 'Whether your two-factor authentication is on, and whether the policy requires it',
        security,
        response: { 200: TwoFactorStatusSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => getTwoFactorStatus(app.db, request.user),
  );

  app.post(
    '/setup',
    {
      config: enrolment,
      schema: {
        tags,
        summary: 'Start enrolling an authenticator app: a new secret and its otpauth URI (for the QR code)',
        description:
          'Replaces an enrolment started but not confirmed. 409 TWO_FACTOR_ALREADY_ENABLED when it is on (disable it first). The secret is stored encrypted and is never answered again once confirmed.',
        security,
        response: { 200: TotpSetupSchema, ...errorResponses(401, 403, 409) },
      },
    },
    async (request) => startTotpEnrolment(app.db, app.secretBox, request.user),
  );

  app.post(
    '/confirm',
    {
      config: enrolment,
      bodyLimit: 4096,
      schema: {
        tags,
        summary:
          'Turn two-factor authentication on with a code from the app; answers the recovery codes once',
        description:
          "The code's time step counts as used (the same code will not sign in). The session that confirms counts as verified; every other session and token of the user is signed out. With a bearer token the answer carries a new token (the one used is refused from now on). 400 INVALID_SECOND_FACTOR_CODE on a wrong code, 409 TWO_FACTOR_NOT_STARTED without a started enrolment, 409 TWO_FACTOR_ALREADY_ENABLED.",
        security,
        body: TotpCodeBodySchema,
        response: { 200: TotpConfirmResponseSchema, ...errorResponses(400, 401, 403, 409, 413) },
      },
    },
    async (request) => {
      const result = await app.db.transaction().execute(async (tx) => {
        const confirmed = await confirmTotpEnrolment(
          tx,
          app.secretBox,
          request.user.id,
          request.body.code,
          app.secondFactorClock.now(),
          request.dashboardSessionId,
        );
        if (confirmed.outcome === 'confirmed' && request.dashboardSessionId) {
          await markDashboardSessionSecondFactor(tx, request.dashboardSessionId, confirmed.confirmedAt);
        }
        return confirmed;
      });
      if (result.outcome !== 'confirmed') throw confirmRefusal[result.outcome];
      return {
        recoveryCodes: result.recoveryCodes,
        ...(!request.dashboardSessionId && {
          token: app.issueToken(
            { id: request.user.id, tokenVersion: result.tokenVersion },
            result.confirmedAt,
          ),
        }),
      };
    },
  );

  app.post(
    '/disable',
    {
      bodyLimit: 4096,
      schema: {
        tags,
        summary: 'Turn two-factor authentication off (your password and a code or recovery code)',
        description:
          'A wrong password is 401 INVALID_CREDENTIALS and counts as a failed login (same limiter, 429); a wrong code counts towards the code lockout. The secret and the recovery codes are deleted. Allowed while the policy requires 2FA of administrators, who are then sent to enrol again.',
        security,
        body: DisableTwoFactorBodySchema,
        response: { 204: Type.Null(), ...errorResponses(400, 401, 403, 409, 413, 429, 503) },
      },
    },
    async (request, reply) => {
      const attempt = await app.loginLimiter.reserve(request.user.email, request.ip);
      if (!(await verifyOwnPassword(app.db, app.passwords, request.user.id, request.body.password))) {
        throw new HttpError(401, 'INVALID_CREDENTIALS', 'The password is wrong');
      }
      await app.loginLimiter
        .succeeded(attempt)
        .catch((err) => request.log.warn({ err }, 'could not reset login attempts'));
      const now = app.secondFactorClock.now();
      const check = await checkSecondFactorCode(
        app.db,
        app.secretBox,
        request.user.id,
        request.body.code,
        now,
      );
      if (check.outcome !== 'ok') throw codeRefusal(check, now);
      await disableTwoFactor(app.db, request.user.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/recovery-codes',
    {
      bodyLimit: 4096,
      schema: {
        tags,
        summary: 'Replace your recovery codes (a current code from the app); answers the new ones once',
        description: 'The old codes stop working. A wrong code counts towards the code lockout.',
        security,
        body: TotpCodeBodySchema,
        response: { 200: RecoveryCodesSchema, ...errorResponses(400, 401, 403, 409, 413, 429) },
      },
    },
    async (request) => {
      const now = app.secondFactorClock.now();
      const check = await checkSecondFactorCode(
        app.db,
        app.secretBox,
        request.user.id,
        request.body.code,
        now,
      );
      if (check.outcome !== 'ok') throw codeRefusal(check, now);
      return { recoveryCodes: await regenerateRecoveryCodes(app.db, request.user.id) };
    },
  );
};
