import type { WebhookDeliveryStatus } from '../db/tables';
import type { WebhookEventType } from './webhook-endpoint';

/** One delivery in an endpoint's log: the event, its attempts so far and the outcome of the last one. */
export interface WebhookDelivery {
  id: string;
  endpointId: string;
  eventId: string;
  type: WebhookEventType;
  status: WebhookDeliveryStatus;
  attempts: number;
  /** HTTP status of the last attempt; null when none answered (network error, timeout) or none was made. */
  statusCode: number | null;
  durationMs: number | null;
  error: string | null;
  /** When the next attempt is due; null unless pending. */
  nextAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  deliveredAt: Date | null;
  createdAt: Date;
}

/** A delivery whose job should be in the queue: its id and how many attempts it has had. */
export interface DueWebhookDelivery {
  id: string;
  attempts: number;
}

/** What an attempt needs, read when the worker claims it. */
export interface ClaimedWebhookDelivery {
  id: string;
  attempts: number;
  /** null: the worker's configured maximum. */
  attemptLimit: number | null;
  eventId: string;
  body: string;
  endpoint: {
    id: string;
    url: string;
    enabled: boolean;
    /** The secrets that sign: the current one, and the previous one during a rotation. */
    secrets: string[];
  };
}

/** How an attempt ended, as the worker judged it. */
export type WebhookAttemptOutcome =
  | { kind: 'delivered' }
  /** Worth another attempt (network error, timeout, 408, 429, 5xx) at `nextAttemptAt`. */
  | { kind: 'retry'; nextAttemptAt: Date }
  /** Given up: not retryable (another 4xx, a redirect, a refused address) or out of attempts. */
  | { kind: 'failed' }
  /** 410 Gone: the delivery fails and the endpoint is disabled. */
  | { kind: 'gone' };

export interface WebhookAttemptResult {
  outcome: WebhookAttemptOutcome;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** The answer's first 1 KB as text; null when nothing answered. */
  responseExcerpt: string | null;
}

/** One attempt in a delivery's log. */
export interface WebhookDeliveryAttempt {
  /** 1-based. */
  attempt: number;
  attemptedAt: Date;
  /** null when nothing answered (network error, timeout). */
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseExcerpt: string | null;
  /** When the attempt after it was scheduled; null when none was. */
  nextAttemptAt: Date | null;
}
