import { createWebhookEndpoint, recordFeedFailureWithWebhook, relayArticleChanges } from '@newsroom/domain';
import { Value } from 'typebox/value';
import { afterAll, describe, expect, expectTypeOf, it } from 'vitest';
import { WebhookEventSchema } from '../../../apps/api/src/schemas/webhook-event.schema';
import { insertArticle, insertSite } from '../../../apps/api/test/support/content-fixtures';
import { createTestApp } from '../../../apps/api/test/support/test-app';
import { signWebhook } from '../../../apps/worker/src/webhooks/webhook-signature';
import { type ClientArticle, verifyWebhook, type WebhookEvent, WebhookVerificationError } from '../src';

// verifyWebhook and the event types against what the sender really sends: events written by the relay
// (packages/domain), signed by the worker's own signer, each body checked against the API's event schema
// (from which the SDK's event types are generated) and verified by the SDK with the endpoint's secret.
const { db, close } = await createTestApp();
afterAll(close);
await insertSite(db, 'metro');
const { endpoint, secret } = await createWebhookEndpoint(db, {
  url: 'https://hooks.example.com/newsroom',
  events: [
    'article.published',
    'article.updated',
    'article.unpublished',
    'article.deleted',
    'publisher.feed_failed',
  ],
  site: 'metro',
  enabled: true,
});

/** Relays the outbox until the endpoint has `count` events (the horizon waits for transactions anywhere). */
async function eventBodies(count: number): Promise<Array<{ id: string; body: string }>> {
  for (
    const deadline = Date.now() + 30_000;
    Date.now() < deadline;
    await new Promise((r) => setTimeout(r, 50))
  ) {
    await relayArticleChanges(db);
    const rows = await db
      .selectFrom('webhook_deliveries')
      .innerJoin('webhook_events', 'webhook_events.id', 'webhook_deliveries.event_id')
      .select(['webhook_events.id', 'webhook_events.body'])
      .where('webhook_deliveries.endpoint_id', '=', endpoint.id)
      .orderBy('webhook_deliveries.created_at')
      .execute();
    if (rows.length >= count) return rows;
  }
  throw new Error(`no ${count} events within 30 s`);
}

/** The headers the worker sends with an attempt (apps/worker/src/webhooks/webhook-sender.ts). */
const signed = (id: string, body: string, timestamp = Math.floor(Date.now() / 1000)) => ({
  'content-type': 'application/json',
  'webhook-id': id,
  'webhook-timestamp': String(timestamp),
  'webhook-signature': signWebhook([secret], id, timestamp, body),
});

describe('verifyWebhook and the webhook event types', () => {
  it('verifies every event type the sender writes, each matching the schema the types come from', async () => {
    const metro = (
      await db.selectFrom('sites').select('id').where('slug', '=', 'metro').executeTakeFirstOrThrow()
    ).id;
    const story = await insertArticle(db, { slug: 'harbour', siteIds: [metro] });
    await eventBodies(1);
    await db
      .updateTable('articles')
      .set({ title: 'Harbour bridge reopens' })
      .where('id', '=', story.id)
      .execute();
    await eventBodies(2);
    await db
      .updateTable('articles')
      .set({ status: 'draft', published_at: null })
      .where('id', '=', story.id)
      .execute();
    await eventBodies(3);
    const doomed = await insertArticle(db, { slug: 'doomed', siteIds: [metro] });
    await eventBodies(4);
    await db.deleteFrom('articles').where('id', '=', doomed.id).execute();
    await eventBodies(5);
    const { id: publisherId } = await db
      .insertInto('publishers')
      .values({ name: 'Wire', feed_url: 'https://feeds.example/rss', default_tags: [], approved: true })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('publisher_default_sites')
      .values({ publisher_id: publisherId, site_id: metro })
      .execute();
    await recordFeedFailureWithWebhook(db, publisherId, 'FETCH_FAILED: connection refused', 1);
    const bodies = await eventBodies(6);

    const events = bodies.map(({ id, body }) => {
      expect(Value.Errors(WebhookEventSchema, JSON.parse(body)), body).toEqual([]);
      const event = verifyWebhook(signed(id, body), body, secret);
      expect(event.id).toBe(id);
      return event;
    });
    expect(events.map((event) => event.type)).toEqual([
      'article.published',
      'article.updated',
      'article.unpublished',
      'article.published',
      'article.deleted',
      'publisher.feed_failed',
    ]);

    // The union narrows on type: data is the client article, or { id, slug }, or the feed failure.
    const titles = events.map((event: WebhookEvent) => {
      switch (event.type) {
        case 'article.published':
        case 'article.updated':
        case 'article.corrected':
          expectTypeOf(event.data).toEqualTypeOf<ClientArticle>();
          return event.data.title;
        case 'article.unpublished':
        case 'article.deleted':
          expectTypeOf(event.data).toEqualTypeOf<{ id: string; slug: string }>();
          return event.data.slug;
        default: // publisher.feed_failed
          return event.data.lastError;
      }
    });
    expect(titles).toEqual([
      expect.any(String),
      'Harbour bridge reopens',
      'harbour',
      expect.any(String),
      'doomed',
      'FETCH_FAILED: connection refused',
    ]);
  }, 90_000);

  it('takes Fetch Headers, Node header objects and a raw byte body', async () => {
    const [{ id, body }] = (await eventBodies(1)) as [{ id: string; body: string }];
    expect(verifyWebhook(new Headers(signed(id, body)), new TextEncoder().encode(body), secret).id).toBe(id);
    const nodeStyle = { ...signed(id, body), 'x-forwarded-for': ['10.0.0.1', '10.0.0.2'] };
    expect(verifyWebhook(nodeStyle, body, secret).id).toBe(id);
  });

  it('refuses a changed body, another secret, a missing signature and an old timestamp', async () => {
    const [{ id, body }] = (await eventBodies(1)) as [{ id: string; body: string }];
    const other = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const { 'webhook-signature': _, ...unsigned } = signed(id, body);
    for (const attempt of [
      () => verifyWebhook(signed(id, body), body.replace('harbour', 'harb0ur'), secret),
      () => verifyWebhook(signed(id, body), body, other),
      () => verifyWebhook(unsigned, body, secret),
      () => verifyWebhook(signed(id, body, Math.floor(Date.now() / 1000) - 3600), body, secret),
    ]) {
      expect(attempt).toThrow(WebhookVerificationError);
    }
  });
});
