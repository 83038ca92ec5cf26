import type { FeedFailure, WebhookEventType } from '@newsroom/domain';
import { type Static, type TSchema, Type } from 'typebox';
import { ClientArticleSchema } from './client-article.schema';

// The bodies webhook deliveries carry (docs/webhooks.md, "Events"), one schema per event type. The domain
// writes them (packages/domain/src/webhooks/webhook-event.ts); the SDK's event types are generated from these
// (packages/sdk/test/support/generate-types.ts), and its tests check real relayed bodies against them.

const envelope = <T extends WebhookEventType, D extends TSchema>(type: T, data: D, title: string) =>
  Type.Object(
    {
      id: Type.String({ description: 'evt_...: the same on every attempt (the webhook-id header)' }),
      type: Type.Literal(type),
      timestamp: Type.String({ format: 'date-time', description: 'when it happened' }),
      data,
    },
    { title },
  );

const ArticleReferenceSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    slug: Type.String({ description: 'the slug it was last seen under' }),
  },
  { title: 'WebhookArticleReference' },
);

const FeedFailureSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: "the publisher's id" }),
    name: Type.String(),
    feedUrl: Type.Union([Type.String(), Type.Null()]),
    consecutiveFailures: Type.Integer(),
    lastError: Type.String({ description: '"CODE: message"' }),
  },
  { title: 'WebhookFeedFailure' },
);

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const feedFailureMatches: Same<Static<typeof FeedFailureSchema>, FeedFailure> = true;
void feedFailureMatches;

export const ArticlePublishedEventSchema = envelope(
  'article.published',
  ClientArticleSchema,
  'ArticlePublishedEvent',
);
export const ArticleUpdatedEventSchema = envelope(
  'article.updated',
  ClientArticleSchema,
  'ArticleUpdatedEvent',
);
export const ArticleUnpublishedEventSchema = envelope(
  'article.unpublished',
  ArticleReferenceSchema,
  'ArticleUnpublishedEvent',
);
export const ArticleDeletedEventSchema = envelope(
  'article.deleted',
  ArticleReferenceSchema,
  'ArticleDeletedEvent',
);
export const ArticleCorrectedEventSchema = envelope(
  'article.corrected',
  ClientArticleSchema,
  'ArticleCorrectedEvent',
);
export const PublisherFeedFailedEventSchema = envelope(
  'publisher.feed_failed',
  FeedFailureSchema,
  'PublisherFeedFailedEvent',
);

/** Any event a webhook delivery carries, told apart by `type`. */
export const WebhookEventSchema = Type.Union(
  [
    ArticlePublishedEventSchema,
    ArticleUpdatedEventSchema,
    ArticleUnpublishedEventSchema,
    ArticleDeletedEventSchema,
    ArticleCorrectedEventSchema,
    PublisherFeedFailedEventSchema,
  ],
  { title: 'WebhookEvent' },
);
export type WebhookEventBody = Static<typeof WebhookEventSchema>;
