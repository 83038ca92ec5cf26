import { createHash, randomUUID } from 'node:crypto';
import { type ArticleChange, visibilityIn } from '../changes/article-change';
import { clientArticleJson } from '../published/client-article-json';
import type { PublishedArticle } from '../published/published-article';
import type { WebhookEventType } from './webhook-endpoint';

/** An event ready to deliver: its id (the `webhook-id` of every attempt) and the exact body. */
export interface WebhookEvent {
  id: string;
  type: WebhookEventType;
  occurredAt: Date;
  body: string;
}

/**
 * The article event a reader scoped to `siteId` (null: the whole network) gets from one outbox row, or null
 * when the change happened outside its view (see packages/domain/src/changes/README.md).
 */
export function articleEventTypeOf(change: ArticleChange, siteId: string | null): WebhookEventType | null {
  const seen = visibilityIn(change, siteId);
  if (!seen.before && seen.after) return 'article.published';
  if (seen.before && seen.after) return 'article.updated';
  if (seen.before && !seen.after) return change.deleted ? 'article.deleted' : 'article.unpublished';
  return null;
}

/**
 * The event id of one outbox row's event of one type: the same whichever replica relays it and however
 * often (the relay's transaction may be retried), and shared by every endpoint that gets that event.
 */
export function articleEventId(change: ArticleChange, type: WebhookEventType): string {
  const digest = createHash('sha256')
    .update(`${change.position.xid}:${change.articleId}:${type}`)
    .digest('hex')
    .slice(0, 32);
  return `evt_${digest}`;
}

export function newEventId(): string {
  return `evt_${randomUUID().replaceAll('-', '')}`;
}

/**
 * An event's body, `{ id, type, timestamp, data }`, with `data` already serialised (undefined: no `data` key,
 * as JSON.stringify leaves out an undefined property).
 */
function eventBody(
  id: string,
  type: WebhookEventType,
  occurredAt: Date,
  dataJson: string | undefined,
): string {
  const head = JSON.stringify({ id, type, timestamp: occurredAt.toISOString() });
  return dataJson === undefined ? head : `${head.slice(0, -1)},"data":${dataJson}}`;
}

/**
 * The event of one outbox row for one type. `article` is the article as child sites see it now (for
 * published and updated), written by the client API's own article writer (the network's view: `urls`);
 * unpublished and deleted carry only `{ id, slug }` (the slug it was last seen under).
 */
export function articleEvent(
  change: ArticleChange,
  type: WebhookEventType,
  article: PublishedArticle | undefined,
): WebhookEvent {
  const id = articleEventId(change, type);
  const data =
    type === 'article.published' || type === 'article.updated'
      ? article && clientArticleJson(article, 'afterHostSites')
      : JSON.stringify({ id: change.articleId, slug: change.slugBefore ?? change.slugAfter });
  return { id, type, occurredAt: change.changedAt, body: eventBody(id, type, change.changedAt, data) };
}

/**
 * The `article.corrected` event of a correction appended to a published article: `data` is the article as
 * child sites see it after the edit (its `corrections` end with the new one), written by clientArticleJson.
 */
export function articleCorrectedEvent(article: PublishedArticle, at: Date): WebhookEvent {
  const id = newEventId();
  const type = 'article.corrected';
  return {
    id,
    type,
    occurredAt: at,
    body: eventBody(id, type, at, clientArticleJson(article, 'afterHostSites')),
  };
}

/** What a `publisher.feed_failed` event says about the publisher. */
export interface FeedFailure {
  id: string;
  name: string;
  feedUrl: string | null;
  consecutiveFailures: number;
  /** The last error, "CODE: message". */
  lastError: string;
}

export function feedFailedEvent(failure: FeedFailure, at: Date): WebhookEvent {
  const id = newEventId();
  const type = 'publisher.feed_failed';
  return { id, type, occurredAt: at, body: eventBody(id, type, at, JSON.stringify(failure)) };
}
