import { createHash } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  acceptInvitation,
  completePasswordReset,
  previewInvitation,
  startPasswordReset,
} from '@newsroom/domain';
import { Type } from 'typebox';
import { recordAuditedChange } from '../../audit/audit.plugin';
import { passwordResetMessage } from '../../mail/messages';
import { limitedBy } from '../../rate-limits/rate-limits.plugin';
import { errorResponses } from '../../schemas/error.schema';
import {
  InvitationPreviewSchema,
  PasswordBodySchema,
  PasswordResetRequestBodySchema,
  TokenParamsSchema,
} from '../../schemas/team.schema';

const tags = ['auth'];
const security: Record<string, string[]>[] = [];

const resetAnswer = {
  message: 'If a login with this e-mail exists, a link to reset its password is on its way.',
};

/** Public: accepting an invitation, and "forgot password". Prefix: /api/v1/auth. */
export const recoveryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/invitation/:token',
    {
      schema: {
        tags,
        security,
        summary: 'What an invitation link is for (e-mail, role), while it may still be accepted',
        params: TokenParamsSchema,
        response: { 200: InvitationPreviewSchema, ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const { email, role, expiresAt } = await previewInvitation(app.db, request.params.token);
      return { email, role, expiresAt };
    },
  );

  app.post(
    '/invitation/:token',
    {
      bodyLimit: 4096,
      // The token is the credential: the row names the user created, never the token or the password.
      config: { audit: 'explicit' },
      schema: {
        tags,
        security,
        summary: 'Accept an invitation: set your password; the login is created with its role and grants',
        description:
          'The link works once and expires (404 INVITATION_NOT_FOUND afterwards). Password rules as for a password change. Sign in afterwards.',
        params: TokenParamsSchema,
        body: PasswordBodySchema,
        response: { 200: Type.Object({ email: Type.String() }), ...errorResponses(400, 404, 409, 413, 415) },
      },
    },
    async (request) => {
      const { token } = request.params;
      const user = await acceptInvitation(app.db, app.passwords, token, request.body.password, request.ip);
      return { email: user.email };
    },
  );

  app.post(
    '/password-reset',
    {
      bodyLimit: 4096,
      // One row whatever the e-mail (the answer must not tell whether it exists): anonymous, labelled with the
      // e-mail tried, no object, never the token.
      config: {
        ...limitedBy(app.config.rateLimits.passwordResetPerIp, 'password-reset', (request) => request.ip),
        audit: 'explicit',
      },
      schema: {
        tags,
        security,
        summary:
          'Forgot password: e-mails a one-time reset link to the login with this e-mail, if there is one',
        description:
          'The answer is the same whether the e-mail exists or not. Rate-limited per client address (429); past the per-e-mail limit no more e-mails go out, with the same answer. Production without SMTP_URL: 503 MAIL_NOT_CONFIGURED.',
        body: PasswordResetRequestBodySchema,
        response: {
          202: Type.Object({ message: Type.String() }),
          ...errorResponses(400, 413, 415, 429, 503),
        },
      },
    },
    async (request, reply) => {
      app.mailer.assertCanSend();
      const email = request.body.email.trim();
      // The row commits with the reset token when one is made, else alone; the e-mail goes after both.
      const reset = await recordAuditedChange(
        request,
        {
          action: 'requestPasswordReset',
          objectType: 'user',
          objectId: null,
          actor: { type: 'anonymous', id: null, label: email },
        },
        async () => ((await underEmailLimit(email)) ? startPasswordReset(app.db, email) : undefined),
      );
      if (reset)
        await app.mailer.send(passwordResetMessage(app.config.mail.dashboardUrl, reset.token, reset.email));
      return reply.status(202).send(resetAnswer);
    },
  );

  app.post(
    '/password-reset/:token',
    {
      bodyLimit: 4096,
      // The token is the credential: the row names the user whose password was set, never the token.
      config: { audit: 'explicit' },
      schema: {
        tags,
        security,
        summary: 'Set a new password through a reset link; every older token and session of the login ends',
        description: 'The link works once, for one hour (404 PASSWORD_RESET_NOT_FOUND afterwards).',
        params: TokenParamsSchema,
        body: PasswordBodySchema,
        response: { 204: Type.Null(), ...errorResponses(400, 404, 413, 415) },
      },
    },
    async (request, reply) => {
      const { token } = request.params;
      await completePasswordReset(app.db, app.passwords, token, request.body.password, request.ip);
      return reply.status(204).send(null);
    },
  );

  /** Counts a reset request for the e-mail in Redis; false past the limit (fails open while Redis is down). */
  async function underEmailLimit(email: string): Promise<boolean> {
    const limit = app.config.rateLimits.passwordResetPerEmail;
    if (!limit) return true;
    const key = `${app.config.redis.queuePrefix}:password-reset-email:${createHash('sha256').update(email.toLowerCase()).digest('hex')}`;
    try {
      const count = await app.redis.incr(key);
      if (count === 1) await app.redis.pexpire(key, limit.windowMs);
      return count <= limit.max;
    } catch (err) {
      app.log.warn({ err }, 'password reset e-mail limit skipped: Redis unavailable');
      return true;
    }
  }
};
