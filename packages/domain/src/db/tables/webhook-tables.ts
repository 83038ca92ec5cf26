import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, TextArray, Timestamp, UpdatedAt } from './columns';

// Webhooks: endpoints, events, deliveries and their attempts, the relay's position.

/** A webhook endpoint registered by an administrator (see packages/domain/src/webhooks/README.md). */
export interface WebhookEndpointTable {
  id: Generated<string>;
  url: string;
  events: TextArray;
  site_id: string | null;
  enabled: Generated<boolean>;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Timestamp | null;
  failing_since: Timestamp | null;
  disabled_reason: string | null;
  disabled_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

/** One event, with the exact body every delivery of it sends. */
export interface WebhookEventTable {
  id: string;
  type: string;
  occurred_at: Timestamp;
  body: string;
  created_at: CreatedAt;
}

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One event to one endpoint: its attempts so far and the outcome of the last one. */
export interface WebhookDeliveryTable {
  id: Generated<string>;
  endpoint_id: string;
  event_id: string;
  status: ColumnType<WebhookDeliveryStatus, WebhookDeliveryStatus | undefined, WebhookDeliveryStatus>;
  attempts: Generated<number>;
  attempt_limit: number | null;
  next_attempt_at: Timestamp | null;
  locked_until: Timestamp | null;
  last_attempt_at: Timestamp | null;
  last_status_code: number | null;
  last_error: string | null;
  last_duration_ms: number | null;
  delivered_at: Timestamp | null;
  created_at: CreatedAt;
}

/** One attempt of a delivery (the log the dashboard shows; the delivery row keeps the last one's summary). */
export interface WebhookDeliveryAttemptTable {
  delivery_id: string;
  attempt: number;
  attempted_at: CreatedAt;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  /** The answer's first 1 KB (UTF-8, never half a character); null without an answer. */
  response_excerpt: string | null;
  next_attempt_at: Timestamp | null;
}

/** The webhook relay's position in the article-change outbox (one row). */
export interface WebhookRelayPositionTable {
  id: ColumnType<boolean, never, never>;
  xid: ColumnType<string, string, string>;
  article_id: string;
}
