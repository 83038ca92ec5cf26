import { comparePositions, nilUuid } from '../changes/article-change';
import { findArticleChangesAfter, findPrunedThrough } from '../changes/article-change.repository';
import type { Db } from '../db/create-db';
import type { ImgproxySettings } from '../images/imgproxy-renditions';
import type { PublishedArticle } from '../published/published-article';
import { findPublishedArticlesByIds } from '../published/published-article.repository';
import { withRenditions } from '../published/published-renditions';
import type { DueWebhookDelivery } from './webhook-delivery';
import { findEnabledWebhookEndpoints } from './webhook-endpoint.repository';
import { articleEvent, articleEventTypeOf, type WebhookEvent } from './webhook-event';
import {
  insertWebhookDeliveries,
  insertWebhookEvents,
  lockWebhookRelayPosition,
  saveWebhookRelayPosition,
} from './webhook-relay.repository';

export interface RelayResult {
  /** false: another replica holds the relay position (it relays meanwhile). */
  relayed: boolean;
  /** Outbox rows read. */
  changes: number;
  /** Whether the read stopped at `batchSize` (more may be waiting). */
  more: boolean;
  /** Deliveries created, to enqueue. */
  deliveries: DueWebhookDelivery[];
  /** The position had fallen behind the outbox's retention: changes were lost, the relay jumped to now. */
  expired: boolean;
  /** A committed change is not final yet (an older write transaction is open): look again soon. */
  waiting: boolean;
}

/**
 * Turns the next outbox rows into webhook events and deliveries, in one transaction that also advances the
 * relay's position (so each row is relayed exactly once, whichever replica does it, and a crash relays it
 * again from scratch). The position row is locked FOR UPDATE SKIP LOCKED: replicas never wait on each other.
 *
 * Per row and enabled endpoint: the event type in the endpoint's scope (articleEventTypeOf), if it
 * subscribes to it and the change is not older than the endpoint. Published and updated events carry the
 * article as child sites see it now; when it is no longer visible in the endpoint's scope, a later outbox
 * row records its leaving, and that row's unpublished or deleted event is the one sent.
 */
export async function relayArticleChanges(
  db: Db,
  options: { batchSize?: number; imgproxy?: ImgproxySettings | undefined } = {},
): Promise<RelayResult> {
  const { batchSize = 500, imgproxy } = options;
  return db.transaction().execute(async (tx) => {
    const position = await lockWebhookRelayPosition(tx);
    const idle = { changes: 0, more: false, deliveries: [], expired: false, waiting: false };
    if (!position) return { relayed: false, ...idle };
    const prunedThrough = await findPrunedThrough(tx);
    if (prunedThrough !== '0' && BigInt(position.xid) <= BigInt(prunedThrough)) {
      await saveWebhookRelayPosition(tx, {
        xid: (BigInt(prunedThrough) + 1n).toString(),
        articleId: nilUuid,
      });
      return { relayed: true, ...idle, expired: true };
    }
    const { changes, horizon, waiting } = await findArticleChangesAfter(tx, position, batchSize);
    const last = changes[changes.length - 1];
    const more = changes.length === batchSize;
    const now = { xid: horizon, articleId: nilUuid };
    const next = more && last ? last.position : now;
    if (changes.length === 0) {
      if (comparePositions(next, position) > 0) await saveWebhookRelayPosition(tx, next);
      return { relayed: true, ...idle, waiting };
    }

    const endpoints = (await findEnabledWebhookEndpoints(tx)).filter((e) =>
      e.events.some((type) => type.startsWith('article.')),
    );
    const matches: {
      endpointId: string;
      siteSlug: string | null;
      change: (typeof changes)[number];
      type: NonNullable<ReturnType<typeof articleEventTypeOf>>;
    }[] = [];
    for (const change of changes) {
      for (const endpoint of endpoints) {
        if (change.changedAt < endpoint.createdAt) continue;
        const type = articleEventTypeOf(change, endpoint.siteId);
        if (type && endpoint.events.includes(type)) {
          matches.push({ endpointId: endpoint.id, siteSlug: endpoint.siteSlug, change, type });
        }
      }
    }
    const needArticle = matches.filter((m) => m.type === 'article.published' || m.type === 'article.updated');
    const articles = new Map<string, PublishedArticle>(
      (await findPublishedArticlesByIds(tx, [...new Set(needArticle.map((m) => m.change.articleId))])).map(
        // The article as the client API answers it, its pictures' renditions included (when imgproxy is set).
        ({ article }) => [article.id, withRenditions(article, imgproxy)],
      ),
    );
    const events = new Map<string, WebhookEvent>();
    const pairs: { endpointId: string; eventId: string }[] = [];
    for (const match of matches) {
      const article = articles.get(match.change.articleId);
      const carriesArticle = match.type === 'article.published' || match.type === 'article.updated';
      const visibleNow =
        article !== undefined && (match.siteSlug === null || article.hostSites.includes(match.siteSlug));
      if (carriesArticle && !visibleNow) continue;
      const event = articleEvent(match.change, match.type, article);
      events.set(event.id, event);
      pairs.push({ endpointId: match.endpointId, eventId: event.id });
    }
    await insertWebhookEvents(tx, [...events.values()]);
    const deliveries = await insertWebhookDeliveries(tx, pairs);
    await saveWebhookRelayPosition(tx, comparePositions(next, position) > 0 ? next : position);
    return { relayed: true, changes: changes.length, more, deliveries, expired: false, waiting };
  });
}
