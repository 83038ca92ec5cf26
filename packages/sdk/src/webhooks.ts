import { Webhook } from 'standardwebhooks';
import type { components } from './generated/openapi.js';

type Schemas = components['schemas'];
/** Any event a webhook delivery carries; `switch (event.type)` narrows `data`. */
export type WebhookEvent = Schemas['WebhookEvent'];
export type ArticlePublishedEvent = Schemas['ArticlePublishedEvent'];
export type ArticleUpdatedEvent = Schemas['ArticleUpdatedEvent'];
export type ArticleUnpublishedEvent = Schemas['ArticleUnpublishedEvent'];
export type ArticleDeletedEvent = Schemas['ArticleDeletedEvent'];
export type PublisherFeedFailedEvent = Schemas['PublisherFeedFailedEvent'];
export type WebhookEventType = WebhookEvent['type'];

/** Request headers as Fetch (`Headers`), Node's http (`IncomingHttpHeaders`) or a plain object give them. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/**
 * A delivery whose signature or timestamp does not hold. Our own class, not standardwebhooks' (whose type
 * declarations need Node's), so the SDK's types stand without @types/node in a browser project.
 */
export class WebhookVerificationError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'WebhookVerificationError';
  }
}

/**
 * Checks a delivery's Standard Webhooks signature (`webhook-id`, `webhook-timestamp`, `webhook-signature`;
 * the timestamp within 5 minutes) with the endpoint's `whsec_...` secret, and returns the typed event.
 * `body` must be the raw request body, not JSON parsed and serialised again. Throws
 * WebhookVerificationError when the signature or timestamp does not hold.
 */
export function verifyWebhook(
  headers: WebhookHeaders,
  body: string | Uint8Array,
  secret: string,
): WebhookEvent {
  const payload = typeof body === 'string' ? body : new TextDecoder().decode(body);
  try {
    return new Webhook(secret).verify(payload, plainHeaders(headers)) as WebhookEvent;
  } catch (error) {
    throw new WebhookVerificationError(error instanceof Error ? error.message : String(error), {
      cause: error,
    });
  }
}

function plainHeaders(headers: WebhookHeaders): Record<string, string> {
  const plain: Record<string, string> = {};
  // A Fetch Headers (of any realm or polyfill) has get(); Node's header objects are plain records.
  if (typeof (headers as Headers).get === 'function') {
    (headers as Headers).forEach((value, name) => {
      plain[name.toLowerCase()] = value;
    });
    return plain;
  }
  for (const [name, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (value !== undefined) plain[name.toLowerCase()] = Array.isArray(value) ? value.join(' ') : value;
  }
  return plain;
}
