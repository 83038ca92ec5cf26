import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  editWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookDeliveryAttempts,
  listWebhookEndpoints,
  resendWebhookDelivery,
  rotateWebhookSecret,
} from '@newsroom/domain';
import { Type } from 'typebox';
import { errorResponses } from '../../schemas/error.schema';
import { paginated, paginationMeta } from '../../schemas/pagination.schema';
import {
  CreatedWebhookEndpointSchema,
  CreateWebhookBodySchema,
  EditWebhookBodySchema,
  RotatedSecretSchema,
  WebhookDeliveriesQuerySchema,
  WebhookDeliveryAttemptListSchema,
  WebhookDeliveryParamsSchema,
  WebhookDeliverySchema,
  WebhookEndpointSchema,
  WebhookIdParamsSchema,
} from '../../schemas/webhook.schema';
import { checkWebhookUrl } from '../../webhooks/webhook-url';

const tags = ['webhooks'];
const security = [{ bearerAuth: [] }];

/** Administrators register webhook endpoints and read their delivery logs (docs/webhooks.md). Prefix /webhooks. */
export const webhookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const allowPrivate = app.config.feeds.allowPrivateAddresses;

  app.post(
    '',
    {
      schema: {
        tags,
        security,
        summary: 'Register a webhook endpoint (its signing secret is shown once, in this answer)',
        body: CreateWebhookBodySchema,
        response: { 201: CreatedWebhookEndpointSchema, ...errorResponses(400, 401, 403, 413, 415) },
      },
    },
    async (request, reply) => {
      const { url, events, site = null, enabled = true } = request.body;
      const { endpoint, secret } = await createWebhookEndpoint(app.db, {
        url: checkWebhookUrl(url, allowPrivate),
        events,
        site,
        enabled,
      });
      return reply.status(201).send({ ...endpoint, secret });
    },
  );

  app.get(
    '',
    {
      schema: {
        tags,
        security,
        summary: 'Every webhook endpoint (never their secrets), oldest first',
        response: {
          200: Type.Object({ data: Type.Array(WebhookEndpointSchema) }),
          ...errorResponses(401, 403),
        },
      },
    },
    async () => ({ data: await listWebhookEndpoints(app.db) }),
  );

  app.get(
    '/:id',
    {
      schema: {
        tags,
        security,
        summary: 'One webhook endpoint',
        params: WebhookIdParamsSchema,
        response: { 200: WebhookEndpointSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => getWebhookEndpoint(app.db, request.params.id),
  );

  app.put(
    '/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Edit an endpoint: URL, events, site scope, enabled (enabling clears a recorded failure)',
        params: WebhookIdParamsSchema,
        body: EditWebhookBodySchema,
        response: { 200: WebhookEndpointSchema, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const { url, ...rest } = request.body;
      return editWebhookEndpoint(app.db, request.params.id, {
        ...rest,
        ...(url !== undefined ? { url: checkWebhookUrl(url, allowPrivate) } : {}),
      });
    },
  );

  app.delete(
    '/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Delete an endpoint and its delivery log',
        params: WebhookIdParamsSchema,
        response: { 204: Type.Null(), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await deleteWebhookEndpoint(app.db, request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/:id/rotate-secret',
    {
      schema: {
        tags,
        security,
        summary: 'A new signing secret (shown once); the previous one keeps signing beside it for 24 hours',
        params: WebhookIdParamsSchema,
        response: { 200: RotatedSecretSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => rotateWebhookSecret(app.db, request.params.id),
  );

  app.get(
    '/:id/deliveries',
    {
      schema: {
        tags,
        security,
        summary: "The endpoint's delivery log, newest first",
        params: WebhookIdParamsSchema,
        querystring: WebhookDeliveriesQuerySchema,
        response: { 200: paginated(WebhookDeliverySchema), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { page, limit } = request.query;
      const result = await listWebhookDeliveries(app.db, request.params.id, { page, limit });
      return { data: result.items, meta: { pagination: paginationMeta({ page, limit }, result.total) } };
    },
  );

  app.get(
    '/:id/deliveries/:deliveryId/attempts',
    {
      schema: {
        tags,
        security,
        summary: "A delivery's attempts, oldest first (the last 100): answer, duration, error, next attempt",
        params: WebhookDeliveryParamsSchema,
        response: { 200: WebhookDeliveryAttemptListSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ({
      data: await listWebhookDeliveryAttempts(app.db, request.params.id, request.params.deliveryId),
    }),
  );

  app.post(
    '/:id/deliveries/:deliveryId/resend',
    {
      schema: {
        tags,
        security,
        summary: 'Send one delivery again (same event id and body; one attempt, within seconds)',
        params: WebhookDeliveryParamsSchema,
        response: { 202: WebhookDeliverySchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) =>
      reply
        .status(202)
        .send(await resendWebhookDelivery(app.db, request.params.id, request.params.deliveryId)),
  );
};
