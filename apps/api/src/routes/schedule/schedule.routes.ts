import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  cancelRelease,
  cancelScheduledAction,
  createRelease,
  getRelease,
  listReleases,
  listScheduledActions,
  rescheduleRelease,
  rescheduleScheduledAction,
  type ScheduleStatus,
  scheduleArticleAction,
} from '@newsroom/domain';
import { Type } from 'typebox';
import { errorResponses } from '../../schemas/error.schema';
import {
  CreateReleaseBodySchema,
  CreateScheduledActionBodySchema,
  ReleaseListQuerySchema,
  ReleaseSchema,
  RescheduleBodySchema,
  ScheduledActionListQuerySchema,
  ScheduledActionSchema,
  ScheduleIdParamsSchema,
} from '../../schemas/schedule.schema';

const tags = ['schedule'];
const security = [{ bearerAuth: [] }];

const statusesOf = (list: string | undefined) =>
  list === undefined ? undefined : (list.split(',') as ScheduleStatus[]);
const timeOf = (value: string | undefined) => (value === undefined ? undefined : new Date(value));

/** Scheduled publish / unpublish actions. Prefix /scheduled-actions. */
export const scheduledActionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '',
    {
      schema: {
        tags,
        security,
        summary:
          "Scheduled actions by due time, filtered by status, article and due window (an article's pending actions: ?articleId=…&status=scheduled)",
        querystring: ScheduledActionListQuerySchema,
        response: {
          200: Type.Object({ data: Type.Array(ScheduledActionSchema) }),
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (request) => {
      const { status, articleId, from, to, limit } = request.query;
      const filter = { statuses: statusesOf(status), articleId, from: timeOf(from), to: timeOf(to) };
      return { data: await listScheduledActions(app.db, filter, limit) };
    },
  );

  app.post(
    '',
    {
      schema: {
        tags,
        security,
        summary:
          "Schedule a publish or unpublish of an article at a time; the worker runs it through the same transition as the PUT routes, with its change-feed entry, webhook events and cache invalidation in one transaction. A publish before the article's embargo is refused (409 ARTICLE_EMBARGOED)",
        body: CreateScheduledActionBodySchema,
        response: { 201: ScheduledActionSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const { articleId, kind, dueAt } = request.body;
      const action = await scheduleArticleAction(
        app.db,
        { articleId, kind, dueAt: new Date(dueAt) },
        request.user.id,
        new Date(),
      );
      return reply.status(201).send(action);
    },
  );

  app.put(
    '/:id',
    {
      schema: {
        tags,
        security,
        summary:
          'Reschedule a scheduled action (409 once it ran or was cancelled, or when it belongs to a release)',
        params: ScheduleIdParamsSchema,
        body: RescheduleBodySchema,
        response: { 200: ScheduledActionSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) =>
      rescheduleScheduledAction(app.db, request.params.id, new Date(request.body.dueAt), new Date()),
  );

  app.post(
    '/:id/cancel',
    {
      config: { optionalBody: true },
      schema: {
        tags,
        security,
        summary: 'Cancel a scheduled action; it stays on record as cancelled',
        params: ScheduleIdParamsSchema,
        response: { 200: ScheduledActionSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => cancelScheduledAction(app.db, request.params.id),
  );
};

/** Releases: actions that go live together, in one transaction. Prefix /releases. */
export const releaseRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '',
    {
      schema: {
        tags,
        security,
        summary: 'Releases by due time, with their actions',
        querystring: ReleaseListQuerySchema,
        response: { 200: Type.Object({ data: Type.Array(ReleaseSchema) }), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { status, from, to, limit } = request.query;
      return {
        data: await listReleases(
          app.db,
          { statuses: statusesOf(status), from: timeOf(from), to: timeOf(to) },
          limit,
        ),
      };
    },
  );

  app.get(
    '/:id',
    {
      schema: {
        tags,
        security,
        summary: 'One release with its actions',
        params: ScheduleIdParamsSchema,
        response: { 200: ReleaseSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => getRelease(app.db, request.params.id),
  );

  app.post(
    '',
    {
      schema: {
        tags,
        security,
        summary:
          'Create a release: publishes and unpublishes of several articles that run together at dueAt in one transaction, all or none (no reader of any route sees half of it)',
        body: CreateReleaseBodySchema,
        response: { 201: ReleaseSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const { name, dueAt, actions } = request.body;
      const release = await createRelease(
        app.db,
        { name, dueAt: new Date(dueAt), actions },
        request.user.id,
        new Date(),
      );
      return reply.status(201).send(release);
    },
  );

  app.put(
    '/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Reschedule a release and all its actions (409 once it ran or was cancelled)',
        params: ScheduleIdParamsSchema,
        body: RescheduleBodySchema,
        response: { 200: ReleaseSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => rescheduleRelease(app.db, request.params.id, new Date(request.body.dueAt), new Date()),
  );

  app.post(
    '/:id/cancel',
    {
      config: { optionalBody: true },
      schema: {
        tags,
        security,
        summary: 'Cancel a release and its actions; they stay on record as cancelled',
        params: ScheduleIdParamsSchema,
        response: { 200: ReleaseSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => cancelRelease(app.db, request.params.id),
  );
};
