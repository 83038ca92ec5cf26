import { type WebhookEventType, webhookEventTypes } from '@newsroom/domain';
import { type Static, Type } from 'typebox';
import { DateTimeSchema } from './date-time.schema';
import { PageQuerySchema } from './pagination.schema';

const NullableDateTime = (description: string) => Type.Union([DateTimeSchema, Type.Null()], { description });

// Spelled out (a mapped union would lose its literal types); the check below keeps it equal to the domain's list.
export const WebhookEventTypeSchema = Type.Union(
  [
    Type.Literal('article.published'),
    Type.Literal('article.updated'),
    Type.Literal('article.unpublished'),
    Type.Literal('article.deleted'),
    Type.Literal('article.corrected'),
    Type.Literal('publisher.feed_failed'),
  ],
  { description: 'an event an endpoint can subscribe to' },
);

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const eventTypesMatch: Same<Static<typeof WebhookEventTypeSchema>, WebhookEventType> = true;
void eventTypesMatch;

const url = Type.String({
  minLength: 1,
  maxLength: 2048,
  description:
    'http(s) URL the events are POSTed to; private, loopback and internal addresses are refused (also at connect time)',
});
const events = Type.Array(WebhookEventTypeSchema, {
  minItems: 1,
  maxItems: webhookEventTypes.length,
  description: 'the events to send (at least one)',
});
const site = Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Null()], {
  description: "a child site's slug: only what that site sees; null for the whole network",
});
const enabled = Type.Boolean({ description: 'whether events are sent (enabling clears a recorded failure)' });

export const WebhookEndpointSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    url: Type.String(),
    events: Type.Array(WebhookEventTypeSchema),
    site: Type.Union([Type.String(), Type.Null()], {
      description: 'slug of the scope site; null: the network',
    }),
    enabled: Type.Boolean(),
    disabledReason: Type.Union([Type.String(), Type.Null()], {
      description: 'why it is disabled (410 Gone, failing for days, an administrator); null while enabled',
    }),
    disabledAt: NullableDateTime('when it was disabled'),
    failingSince: NullableDateTime('start of the current run of failed attempts; null after a success'),
    previousSecretExpiresAt: NullableDateTime('until when the previous secret also signs (after a rotation)'),
    createdAt: DateTimeSchema,
    updatedAt: DateTimeSchema,
  },
  { title: 'WebhookEndpoint' },
);

export const CreatedWebhookEndpointSchema = Type.Object(
  {
    ...WebhookEndpointSchema.properties,
    secret: Type.String({
      description: 'the signing secret (whsec_...): shown only in this response (and on rotation)',
    }),
  },
  { title: 'CreatedWebhookEndpoint' },
);

export const CreateWebhookBodySchema = Type.Object(
  { url, events, site: Type.Optional(site), enabled: Type.Optional(enabled) },
  { additionalProperties: false },
);

export const EditWebhookBodySchema = Type.Object(
  {
    url: Type.Optional(url),
    events: Type.Optional(events),
    site: Type.Optional(site),
    enabled: Type.Optional(enabled),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const RotatedSecretSchema = Type.Object(
  {
    secret: Type.String({ description: 'the new signing secret, shown only in this response' }),
    previousSecretExpiresAt: Type.Unsafe<Date>(
      Type.String({ format: 'date-time', description: 'the previous secret signs beside it until then' }),
    ),
  },
  { title: 'RotatedWebhookSecret' },
);

export const WebhookIdParamsSchema = Type.Object({ id: Type.String({ format: 'uuid' }) });
export const WebhookDeliveryParamsSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  deliveryId: Type.String({ format: 'uuid' }),
});
export const WebhookDeliveriesQuerySchema = Type.Object(
  { ...PageQuerySchema.properties },
  { additionalProperties: false },
);

export const WebhookDeliverySchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    eventId: Type.String({ description: 'the webhook-id header: the same on every attempt and resend' }),
    type: WebhookEventTypeSchema,
    status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
    attempts: Type.Integer({ description: 'attempts made so far' }),
    statusCode: Type.Union([Type.Integer(), Type.Null()], {
      description: "the last attempt's HTTP status; null when it got no answer",
    }),
    durationMs: Type.Union([Type.Integer(), Type.Null()], { description: "the last attempt's duration" }),
    error: Type.Union([Type.String(), Type.Null()], { description: 'why the last attempt failed' }),
    nextAttemptAt: NullableDateTime('when the next attempt is due (pending only)'),
    lastAttemptAt: NullableDateTime('when the last attempt was made'),
    deliveredAt: NullableDateTime('when a receiver accepted it (2xx)'),
    createdAt: DateTimeSchema,
  },
  { title: 'WebhookDelivery' },
);

export const WebhookDeliveryAttemptSchema = Type.Object(
  {
    attempt: Type.Integer({ minimum: 1, description: '1 for the first attempt' }),
    attemptedAt: DateTimeSchema,
    statusCode: Type.Union([Type.Integer(), Type.Null()], {
      description: 'the HTTP status of the answer; null when none came (network error, timeout)',
    }),
    durationMs: Type.Integer(),
    error: Type.Union([Type.String(), Type.Null()], { description: 'why it failed; null when delivered' }),
    responseExcerpt: Type.Union([Type.String(), Type.Null()], {
      description: "the answer's first 1 KB as text; null when none came",
    }),
    nextAttemptAt: NullableDateTime('when the attempt after it was scheduled; null when none was'),
  },
  { title: 'WebhookDeliveryAttempt' },
);

export const WebhookDeliveryAttemptListSchema = Type.Object(
  { data: Type.Array(WebhookDeliveryAttemptSchema) },
  { title: 'WebhookDeliveryAttemptList' },
);
