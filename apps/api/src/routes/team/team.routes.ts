import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  changeUserAccess,
  deleteUser,
  inviteStaff,
  listPendingInvitations,
  listTeam,
  reinstateUser,
  revokeInvitation,
  suspendUser,
} from '@newsroom/domain';
import { Type } from 'typebox';
import { invitationMessage } from '../../mail/messages';
import { errorResponses } from '../../schemas/error.schema';
import {
  InvitationSchema,
  InvitationSentSchema,
  InviteBodySchema,
  StaffAccessBodySchema,
  TeamMemberSchema,
  UserIdParamsSchema,
} from '../../schemas/team.schema';

const tags = ['team'];
const security = [{ bearerAuth: [] }];

/** Administrators manage the staff users: list, role and grants, suspend, reinstate, delete. Prefix /users. */
export const teamRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '',
    {
      schema: {
        tags,
        security,
        summary: 'Every staff user (not publishers), with role, site grants, state and last sign-in',
        response: { 200: Type.Object({ data: Type.Array(TeamMemberSchema) }), ...errorResponses(401, 403) },
      },
    },
    async () => ({ data: await listTeam(app.db) }),
  );

  app.post(
    '/invitations',
    {
      config: { audit: { objectType: 'invitation' } },
      schema: {
        tags,
        security,
        summary: 'Invite a person by e-mail with a role and site grants: a one-time link, valid 7 days',
        description:
          'The invitee sets a password at the link and gets the role and grants. 409 EMAIL_TAKEN when a login has the e-mail. Production without SMTP_URL: 503 MAIL_NOT_CONFIGURED, nothing is stored. Development without SMTP_URL: `mail` is `outbox` and `developmentLink` is the link (also on /dev/outbox).',
        body: InviteBodySchema,
        response: { 201: InvitationSentSchema, ...errorResponses(400, 401, 403, 409, 413, 415, 503) },
      },
    },
    async (request, reply) => {
      app.mailer.assertCanSend();
      const { invitation, token } = await inviteStaff(app.db, {
        ...request.body,
        invitedBy: request.user.id,
      });
      const message = invitationMessage(app.config.mail.dashboardUrl, token, invitation);
      const mail = await app.mailer.send(message);
      // Development without SMTP: the administrator gets the link itself (it is on /dev/outbox anyway).
      return reply
        .status(201)
        .send({ ...invitation, mail, developmentLink: mail === 'outbox' ? message.link : null });
    },
  );

  app.get(
    '/invitations',
    {
      schema: {
        tags,
        security,
        summary: 'Invitations not yet accepted and not expired, newest first',
        response: { 200: Type.Object({ data: Type.Array(InvitationSchema) }), ...errorResponses(401, 403) },
      },
    },
    async () => ({ data: await listPendingInvitations(app.db) }),
  );

  app.delete(
    '/invitations/:id',
    {
      config: { audit: { objectType: 'invitation', idParam: 'id' } },
      schema: {
        tags,
        security,
        summary: 'Revoke an invitation not yet accepted: its link stops working',
        params: UserIdParamsSchema,
        response: { 204: Type.Null(), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await revokeInvitation(app.db, request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.put(
    '/:id',
    {
      schema: {
        tags,
        security,
        summary: "Replace a staff user's role and site grants (effective on its next request)",
        description: 'The last live administrator cannot be demoted (409 LAST_ADMINISTRATOR).',
        params: UserIdParamsSchema,
        body: StaffAccessBodySchema,
        response: { 200: TeamMemberSchema, ...errorResponses(400, 401, 403, 404, 409, 413, 415) },
      },
    },
    async (request) => changeUserAccess(app.db, request.params.id, request.body),
  );

  app.put(
    '/:id/suspend',
    {
      schema: {
        tags,
        security,
        summary: 'Suspend a staff user: its tokens and sessions end at once; its content stays',
        description:
          'Not oneself (409 CANNOT_SUSPEND_SELF), not the last administrator (409 LAST_ADMINISTRATOR).',
        params: UserIdParamsSchema,
        response: { 200: TeamMemberSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => suspendUser(app.db, request.params.id, request.user.id),
  );

  app.put(
    '/:id/reinstate',
    {
      schema: {
        tags,
        security,
        summary: 'Lift a suspension: the user may sign in again',
        params: UserIdParamsSchema,
        response: { 200: TeamMemberSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => reinstateUser(app.db, request.params.id),
  );

  app.delete(
    '/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Delete a staff user for good: the login ends at once, its articles keep their history',
        description:
          'Not oneself (409 CANNOT_DELETE_SELF), not the last administrator (409 LAST_ADMINISTRATOR).',
        params: UserIdParamsSchema,
        response: { 204: Type.Null(), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await deleteUser(app.db, request.params.id, request.user.id);
      return reply.status(204).send(null);
    },
  );
};
