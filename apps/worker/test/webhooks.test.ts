import { setTimeout as sleep } from 'node:timers/promises';
import { loadWorkerConfig } from '@newsroom/config';
import {
  createWebhookEndpoint,
  insertArticle,
  recordFeedFailureWithWebhook,
  rotateWebhookSecret,
} from '@newsroom/domain';
import { createRedisConnection, enqueueWebhookAttempts } from '@newsroom/queue';
import { createTestDatabase, testRedis } from '@newsroom/test-support';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createWebhookWorker } from '../src/webhooks/webhook-worker';
import { startWebhookReceiver } from './support/webhook-receiver';
import { insertPublisher } from './support/worker-harness';

vi.setConfig({ testTimeout: 30_000 });

const database = await createTestDatabase();
const { db } = database;
const redis = testRedis();
const timeoutMs = 1_000;
const config = loadWorkerConfig({
  NODE_ENV: 'test',
  DATABASE_URL: database.url,
  REDIS_URL: redis.url,
  QUEUE_PREFIX: redis.prefix,
  FEED_ALLOW_PRIVATE_ADDRESSES: 'true',
  WEBHOOK_TIMEOUT_MS: String(timeoutMs),
  WEBHOOK_RETRY_BASE_MS: '100',
  WEBHOOK_MAX_ATTEMPTS: '4',
  WEBHOOK_RELAY_INTERVAL_MS: '50',
  WEBHOOK_SWEEP_INTERVAL_MS: '200',
  FEED_FAILED_WEBHOOK_AFTER: '3',
});
const connection = createRedisConnection(config.redis.url, 'worker');
const receiver = await startWebhookReceiver();
const webhooks = await createWebhookWorker({
  config,
  db,
  connection,
  isAllowedAddress: (address) => address === '127.0.0.1',
});

afterEach(async () => {
  // Each test hears only its own endpoint.
  await db.deleteFrom('webhook_endpoints').execute();
});
afterAll(async () => {
  await webhooks.close();
  await webhooks.queue.obliterate({ force: true }).catch(() => {});
  connection.disconnect();
  await receiver.close();
  await database.destroy();
});

async function waitFor<T>(
  read: () => Promise<T | undefined | false>,
  what: string,
  boundMs = 15_000,
): Promise<T> {
  for (const deadline = Date.now() + boundMs; Date.now() < deadline; await sleep(25)) {
    const value = await read();
    if (value !== undefined && value !== false) return value;
  }
  throw new Error(`${what}: not within ${boundMs} ms`);
}

async function endpointAt(
  path: string,
  events = ['article.published', 'article.updated', 'article.deleted'],
) {
  return createWebhookEndpoint(db, { url: receiver.url(path), events, site: null, enabled: true });
}

function nth<T>(list: readonly T[], index: number): T {
  const item = list[index];
  if (item === undefined) throw new Error(`no item ${index}`);
  return item;
}

async function firstRequest(path: string, what: string) {
  return nth(
    await waitFor(async () => receiver.received(path).length > 0 && receiver.received(path), what),
    0,
  );
}

let count = 0;
async function publishArticle(title = 'Harbour bridge reopens') {
  count += 1;
  return insertArticle(db, {
    title,
    slug: `story-${count}-${Date.now()}`,
    body: '<p>Traffic is back.</p>',
    tags: ['traffic'],
    status: 'published',
    published_at: new Date(),
  });
}

const deliveryOf = (endpointId: string) =>
  db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId).executeTakeFirst();

describe('webhook delivery to a loopback receiver', () => {
  it('signs with Standard Webhooks: the standardwebhooks package verifies it', async () => {
    const { endpoint, secret } = await endpointAt('/signed');
    const article = await publishArticle();
    const request = await firstRequest('/signed', 'delivery');
    const verified = new Webhook(secret).verify(request.body, request.headers) as {
      id: string;
      type: string;
      data: { id: string; slug: string; title: string };
    };
    expect(verified).toMatchObject({
      id: request.headers['webhook-id'],
      type: 'article.published',
      data: { id: article.id, slug: article.slug, title: 'Harbour bridge reopens' },
    });
    expect(request.headers['content-type']).toBe('application/json');
    expect(Math.abs(Number(request.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(request.body, request.headers),
    ).toThrow();
    const delivery = await waitFor(async () => {
      const row = await deliveryOf(endpoint.id);
      return row?.status === 'delivered' && row;
    }, 'delivered');
    expect(delivery).toMatchObject({ attempts: 1, last_status_code: 200, last_error: null });
  });

  it('retries 500 twice, then gets 200: three requests with the same event id', async () => {
    const { endpoint, secret } = await endpointAt('/flaky');
    receiver.answer('/flaky', 500, 500, 200);
    await publishArticle();
    const requests = await waitFor(
      async () => receiver.received('/flaky').length >= 3 && receiver.received('/flaky'),
      'three attempts',
    );
    expect(new Set(requests.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(new Set(requests.map((r) => r.body)).size).toBe(1);
    for (const request of requests)
      expect(() => new Webhook(secret).verify(request.body, request.headers)).not.toThrow();
    // Backed off: 100 ms, then 400 ms (±20%).
    expect(nth(requests, 1).at - nth(requests, 0).at).toBeGreaterThanOrEqual(70);
    expect(nth(requests, 2).at - nth(requests, 1).at).toBeGreaterThanOrEqual(300);
    const delivery = await waitFor(async () => {
      const row = await deliveryOf(endpoint.id);
      return row?.status === 'delivered' && row;
    }, 'delivered');
    expect(delivery).toMatchObject({ attempts: 3, last_status_code: 200 });
    await sleep(300);
    expect(receiver.received('/flaky')).toHaveLength(3);
  });

  it('logs every attempt: time, status, duration, error, the first 1 KB of the answer, the next one', async () => {
    const { endpoint } = await endpointAt('/logged');
    const long = `${'é'.repeat(600)}tail`;
    receiver.answer(
      '/logged',
      { status: 500, headers: {}, body: long },
      { status: 503, headers: {}, body: 'busy' },
      { status: 200, headers: {}, body: '{"ok":true}' },
    );
    await publishArticle();
    const delivery = await waitFor(async () => {
      const row = await deliveryOf(endpoint.id);
      return row?.status === 'delivered' && row;
    }, 'delivered');
    const attempts = await db
      .selectFrom('webhook_delivery_attempts')
      .selectAll()
      .where('delivery_id', '=', delivery.id)
      .orderBy('attempt')
      .execute();
    expect(attempts.map((a) => [a.attempt, a.status_code, a.error])).toEqual([
      [1, 500, 'HTTP 500'],
      [2, 503, 'HTTP 503'],
      [3, 200, null],
    ]);
    const [first, second, third] = attempts as [
      (typeof attempts)[0],
      (typeof attempts)[0],
      (typeof attempts)[0],
    ];
    // 1 KB of the answer, never half a character: 512 two-byte characters.
    expect(first.response_excerpt).toBe('é'.repeat(512));
    expect(second.response_excerpt).toBe('busy');
    expect(third.response_excerpt).toBe('{"ok":true}');
    expect(first.next_attempt_at?.getTime()).toBeGreaterThan(first.attempted_at.getTime());
    expect(second.next_attempt_at?.getTime()).toBeGreaterThan(second.attempted_at.getTime());
    expect(third.next_attempt_at).toBeNull();
    for (const attempt of attempts) expect(attempt.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it('honours Retry-After on 429', async () => {
    const { endpoint } = await endpointAt('/busy');
    receiver.answer('/busy', { status: 429, headers: { 'retry-after': '1' } }, 200);
    await publishArticle();
    const requests = await waitFor(
      async () => receiver.received('/busy').length >= 2 && receiver.received('/busy'),
      'retry',
    );
    expect(nth(requests, 1).at - nth(requests, 0).at).toBeGreaterThanOrEqual(900);
    await waitFor(async () => (await deliveryOf(endpoint.id))?.status === 'delivered', 'delivered');
  });

  it('does not retry another 4xx', async () => {
    const { endpoint } = await endpointAt('/bad');
    receiver.answer('/bad', 400);
    await publishArticle();
    const delivery = await waitFor(async () => {
      const row = await deliveryOf(endpoint.id);
      return row?.status === 'failed' && row;
    }, 'failed');
    expect(delivery).toMatchObject({
      attempts: 1,
      last_status_code: 400,
      last_error: 'HTTP 400',
      next_attempt_at: null,
    });
    await sleep(500);
    expect(receiver.received('/bad')).toHaveLength(1);
  });

  it('disables the endpoint on 410, with the reason recorded', async () => {
    const { endpoint } = await endpointAt('/gone');
    receiver.answer('/gone', 410);
    await publishArticle();
    const row = await waitFor(async () => {
      const e = await db
        .selectFrom('webhook_endpoints')
        .selectAll()
        .where('id', '=', endpoint.id)
        .executeTakeFirstOrThrow();
      return !e.enabled && e;
    }, 'disabled');
    expect(row.disabled_reason).toBe('the receiver answered 410 Gone');
    expect(row.disabled_at).toBeInstanceOf(Date);
    expect(await deliveryOf(endpoint.id)).toMatchObject({
      status: 'failed',
      attempts: 1,
      last_status_code: 410,
    });
    // Nothing more is sent to it.
    await publishArticle('Another story');
    await sleep(500);
    expect(receiver.received('/gone')).toHaveLength(1);
  });

  it('cuts a receiver that hangs at the timeout, and retries', async () => {
    const { endpoint } = await endpointAt('/hang');
    receiver.answer('/hang', 'hang', 200);
    await publishArticle();
    const first = await waitFor(async () => {
      const row = await deliveryOf(endpoint.id);
      return row && row.attempts >= 1 && row;
    }, 'first attempt');
    expect(first.last_error).toBe(`no answer within ${timeoutMs} ms`);
    expect(first.last_status_code).toBeNull();
    expect(first.last_duration_ms).toBeGreaterThanOrEqual(timeoutMs - 50);
    expect(first.last_duration_ms).toBeLessThan(timeoutMs + 1_500);
    await waitFor(async () => (await deliveryOf(endpoint.id))?.status === 'delivered', 'delivered on retry');
  });

  it('disables an endpoint whose every attempt has failed for days', async () => {
    const { endpoint } = await endpointAt('/down');
    receiver.answer('/down', 503);
    await db
      .updateTable('webhook_endpoints')
      .set({ failing_since: new Date(Date.now() - 4 * 86_400_000) })
      .where('id', '=', endpoint.id)
      .execute();
    await publishArticle();
    const row = await waitFor(async () => {
      const e = await db
        .selectFrom('webhook_endpoints')
        .selectAll()
        .where('id', '=', endpoint.id)
        .executeTakeFirstOrThrow();
      return !e.enabled && e;
    }, 'disabled');
    expect(row.disabled_reason).toMatch(/^every delivery failed since \d{4}-\d\d-\d\dT/);
  });

  it('signs with both secrets while a rotation overlaps', async () => {
    const { endpoint, secret: oldSecret } = await endpointAt('/rotated');
    const { secret: newSecret } = await rotateWebhookSecret(db, endpoint.id);
    await publishArticle();
    const request = await firstRequest('/rotated', 'delivery');
    expect((request.headers['webhook-signature'] ?? '').split(' ')).toHaveLength(2);
    expect(() => new Webhook(oldSecret).verify(request.body, request.headers)).not.toThrow();
    expect(() => new Webhook(newSecret).verify(request.body, request.headers)).not.toThrow();
  });

  it('sends article.updated and article.deleted, deletions with id and slug only', async () => {
    await endpointAt('/lifecycle');
    const article = await publishArticle();
    await waitFor(async () => receiver.received('/lifecycle').length >= 1, 'published');
    await db.updateTable('articles').set({ title: 'Corrected title' }).where('id', '=', article.id).execute();
    await waitFor(async () => receiver.received('/lifecycle').length >= 2, 'updated');
    await db.deleteFrom('articles').where('id', '=', article.id).execute();
    const requests = await waitFor(
      async () => receiver.received('/lifecycle').length >= 3 && receiver.received('/lifecycle'),
      'deleted',
    );
    const bodies = requests.map((r) => JSON.parse(r.body));
    expect(bodies.map((b) => b.type)).toEqual(['article.published', 'article.updated', 'article.deleted']);
    expect(bodies[1].data.title).toBe('Corrected title');
    expect(bodies[2].data).toEqual({ id: article.id, slug: article.slug });
    expect(new Set(bodies.map((b) => b.id)).size).toBe(3);
  });

  it('sends publisher.feed_failed once, at the configured number of consecutive failures', async () => {
    await endpointAt('/feeds', ['publisher.feed_failed']);
    const publisherId = await insertPublisher(db, {
      name: 'Daily Planet',
      feedUrl: 'https://planet.example/rss',
    });
    for (let failure = 1; failure <= 5; failure++) {
      await recordFeedFailureWithWebhook(
        db,
        publisherId,
        'TIMEOUT: no answer',
        config.webhooks.feedFailedAfter,
      );
    }
    const request = await firstRequest('/feeds', 'feed_failed');
    expect(JSON.parse(request.body)).toMatchObject({
      type: 'publisher.feed_failed',
      data: {
        id: publisherId,
        name: 'Daily Planet',
        consecutiveFailures: 3,
        lastError: 'TIMEOUT: no answer',
      },
    });
    await sleep(500);
    expect(receiver.received('/feeds')).toHaveLength(1);
  });

  it('runs an attempt job queued by an earlier version once; a second job for the same attempt does nothing', async () => {
    const { endpoint } = await endpointAt('/legacy', ['article.published']);
    const eventId = `evt_legacy_${Date.now()}`;
    await db
      .insertInto('webhook_events')
      .values({ id: eventId, type: 'article.published', occurred_at: new Date(), body: '{"legacy":true}' })
      .execute();
    // Not due for the pump (an hour away): only the job sends it.
    const row = await db
      .insertInto('webhook_deliveries')
      .values({
        endpoint_id: endpoint.id,
        event_id: eventId,
        next_attempt_at: new Date(Date.now() + 3_600_000),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await enqueueWebhookAttempts(webhooks.queue, [{ id: row.id, attempts: 0 }]);
    const request = await firstRequest('/legacy', 'the job');
    expect(request.body).toBe('{"legacy":true}');
    await waitFor(async () => (await deliveryOf(endpoint.id))?.status === 'delivered', 'recorded');
    await webhooks.queue.clean(0, 0, 'completed');
    await enqueueWebhookAttempts(webhooks.queue, [{ id: row.id, attempts: 0 }]);
    await sleep(300);
    expect(receiver.received('/legacy')).toHaveLength(1);
  });
});
