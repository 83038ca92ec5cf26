import { randomBytes } from 'node:crypto';
import type { WebhookEndpointRow } from '../db/tables';

/** Every event an endpoint may subscribe to. */
export const webhookEventTypes = [
  'article.published',
  'article.updated',
  'article.unpublished',
  'article.deleted',
  'article.corrected',
  'publisher.feed_failed',
] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];

/** How long the secret replaced by a rotation keeps signing beside the new one. */
export const secretRotationOverlapMs = 24 * 60 * 60 * 1000;

/** A webhook endpoint as administrators see it: never its secret. */
export interface WebhookEndpoint {
  id: string;
  url: string;
  events: WebhookEventType[];
  /** The child site (slug) whose view the endpoint hears; null: the whole network. */
  site: string | null;
  enabled: boolean;
  /** Why the endpoint is disabled (410, failing for days, an administrator); null while enabled. */
  disabledReason: string | null;
  disabledAt: Date | null;
  /** Start of the current run of failed attempts; null after a success. */
  failingSince: Date | null;
  /** Until when the previous secret still signs beside the current one (after a rotation); else null. */
  previousSecretExpiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A new signing secret: `whsec_` and the base64 of 32 random bytes (Standard Webhooks). */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export type WebhookEndpointRowWithSite = Omit<WebhookEndpointRow, 'secret' | 'previous_secret'> & {
  site_slug: string | null;
};

export function toWebhookEndpoint(row: WebhookEndpointRowWithSite, now = new Date()): WebhookEndpoint {
  const expires = row.previous_secret_expires_at;
  return {
    id: row.id,
    url: row.url,
    events: row.events as WebhookEventType[],
    site: row.site_slug,
    enabled: row.enabled,
    disabledReason: row.disabled_reason,
    disabledAt: row.disabled_at,
    failingSince: row.failing_since,
    previousSecretExpiresAt: expires && expires > now ? expires : null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
