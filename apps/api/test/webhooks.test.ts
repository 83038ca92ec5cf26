import { setTimeout as sleep } from 'node:timers/promises';
import { claimWebhookDelivery, recordWebhookAttempt, relayArticleChanges } from '@newsroom/domain';
import { afterAll, describe, expect, it } from 'vitest';
import { createDashboardUsers } from './support/dashboard-users';
import { createTestApp, testApiKey } from './support/test-app';

const testApp = await createTestApp();
const { app, db, close } = testApp;
afterAll(close);
const { adminToken, publisherToken } = await createDashboardUsers(testApp);

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, payload?: object, token = adminToken) =>
  app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(payload ? { payload } : {}),
  });
const hook = { url: 'https://hooks.example.com/newsroom', events: ['article.published'] };
const create = async (payload: object = hook) => {
  const response = await call('POST', '/api/v1/webhooks', payload);
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
};
const unknownId = '00000000-0000-4000-8000-000000000000';

describe('webhook endpoints', () => {
  it('are for administrators only', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/v1/webhooks' })).statusCode).toBe(401);
    const asPublisher = await call('POST', '/api/v1/webhooks', hook, publisherToken);
    expect(asPublisher.statusCode).toBe(403);
    expect((await call('GET', '/api/v1/webhooks', undefined, publisherToken)).statusCode).toBe(403);
  });

  it('shows the whsec_ secret once, at creation, and never in reads', async () => {
    const created = await create({ ...hook, events: ['article.published', 'article.deleted'] });
    expect(created).toMatchObject({
      url: hook.url,
      events: ['article.published', 'article.deleted'],
      site: null,
      enabled: true,
      disabledReason: null,
      previousSecretExpiresAt: null,
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(created.secret.slice(6), 'base64')).toHaveLength(32);
    const one = await call('GET', `/api/v1/webhooks/${created.id}`);
    const list = await call('GET', '/api/v1/webhooks');
    for (const body of [one.body, list.body]) {
      expect(body).not.toContain(created.secret.slice(6, 20));
      expect(body).not.toContain('secret"');
    }
    const { secret: _secret, ...withoutSecret } = created;
    expect(one.json()).toEqual(withoutSecret);
  });

  it('refuses bad input with 400 and a field', async () => {
    const cases: [object, string][] = [
      [{ url: hook.url }, 'VALIDATION_ERROR'],
      [{ ...hook, events: [] }, 'VALIDATION_ERROR'],
      [{ ...hook, events: ['article.read'] }, 'VALIDATION_ERROR'],
      [{ ...hook, extra: true }, 'VALIDATION_ERROR'],
      [{ ...hook, url: 'not a url' }, 'INVALID_WEBHOOK_URL'],
      [{ ...hook, url: 'ftp://hooks.example.com/x' }, 'INVALID_WEBHOOK_URL'],
      [{ ...hook, url: 'https://user:pw@hooks.example.com/x' }, 'INVALID_WEBHOOK_URL'],
      [{ ...hook, site: 'no-such-site' }, 'UNKNOWN_SITE'],
    ];
    for (const [payload, code] of cases) {
      const response = await call('POST', '/api/v1/webhooks', payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().code, JSON.stringify(payload)).toBe(code);
    }
    const created = await create();
    const put = await call('PUT', `/api/v1/webhooks/${created.id}`, {});
    expect(put.statusCode).toBe(400);
    expect((await call('GET', '/api/v1/webhooks/not-a-uuid')).statusCode).toBe(400);
    expect((await call('GET', `/api/v1/webhooks/${unknownId}`)).json().code).toBe('WEBHOOK_NOT_FOUND');
  });

  it('refuses private, loopback, link-local and internal targets', async () => {
    for (const url of [
      'http://127.0.0.1:8080/hook',
      'http://10.1.2.3/hook',
      'http://169.254.169.254/latest',
      'http://[::1]/hook',
      'http://localhost:3000/hook',
      'https://wiki.internal/hook',
    ]) {
      const response = await call('POST', '/api/v1/webhooks', { ...hook, url });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().code, url).toBe('WEBHOOK_URL_REFUSED');
    }
    const created = await create();
    const moved = await call('PUT', `/api/v1/webhooks/${created.id}`, { url: 'http://192.168.1.10/' });
    expect(moved.json().code).toBe('WEBHOOK_URL_REFUSED');
  });

  it('edits events, scope and enabled; enabling clears the recorded failure', async () => {
    const site = await call('POST', '/api/v1/site', {
      slug: 'metro',
      name: 'Metro',
      domain: 'metro.example.com',
      articleUrlTemplate: 'https://{domain}/news/{slug}',
    });
    expect(site.statusCode).toBe(201);
    const created = await create();
    const edited = await call('PUT', `/api/v1/webhooks/${created.id}`, {
      events: ['article.updated', 'publisher.feed_failed'],
      site: 'metro',
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({
      events: ['article.updated', 'publisher.feed_failed'],
      site: 'metro',
    });
    const disabled = await call('PUT', `/api/v1/webhooks/${created.id}`, { enabled: false });
    expect(disabled.json()).toMatchObject({ enabled: false, disabledReason: 'disabled by an administrator' });
    expect(disabled.json().disabledAt).toEqual(expect.any(String));
    const enabled = await call('PUT', `/api/v1/webhooks/${created.id}`, { enabled: true, site: null });
    expect(enabled.json()).toMatchObject({
      enabled: true,
      disabledReason: null,
      disabledAt: null,
      site: null,
    });
  });

  it('rotates the secret: a new one shown once, the previous one signing for 24 hours', async () => {
    const created = await create();
    const before = Date.now();
    const rotated = await call('POST', `/api/v1/webhooks/${created.id}/rotate-secret`);
    expect(rotated.statusCode).toBe(200);
    const { secret, previousSecretExpiresAt } = rotated.json();
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(created.secret);
    const expires = Date.parse(previousSecretExpiresAt);
    expect(expires - before).toBeGreaterThan(23.9 * 3600_000);
    expect(expires - before).toBeLessThan(24.1 * 3600_000);
    const read = await call('GET', `/api/v1/webhooks/${created.id}`);
    expect(read.json().previousSecretExpiresAt).toBe(previousSecretExpiresAt);
    const stored = await db
      .selectFrom('webhook_endpoints')
      .select(['secret', 'previous_secret'])
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ secret, previous_secret: created.secret });
  });

  it('deletes an endpoint', async () => {
    const created = await create();
    expect((await call('DELETE', `/api/v1/webhooks/${created.id}`)).statusCode).toBe(204);
    expect((await call('GET', `/api/v1/webhooks/${created.id}`)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/v1/webhooks/${created.id}`)).statusCode).toBe(404);
  });
});

/** Relays the outbox until it has produced something (the horizon waits for transactions anywhere on the server). */
async function relayUntilDeliveries(endpointId: string, count: number) {
  for (const deadline = Date.now() + 15_000; Date.now() < deadline; await sleep(50)) {
    await relayArticleChanges(db);
    const rows = await db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('endpoint_id', '=', endpointId)
      .execute();
    if (rows.length >= count) return;
  }
  throw new Error(`no ${count} deliveries within 15 s`);
}

describe('events and the delivery log', () => {
  it('carry the article exactly as the client API answers it', async () => {
    const endpoint = await create({ ...hook, events: ['article.published'] });
    const article = await call('POST', '/api/v1/article', {
      title: 'Harbour bridge reopens',
      body: '<p>Traffic is back.</p>',
      tags: ['traffic'],
      hostSites: ['metro'],
    });
    expect(article.statusCode).toBe(201);
    expect((await call('PUT', `/api/v1/article/publish/${article.json().id}`)).statusCode).toBe(200);
    await relayUntilDeliveries(endpoint.id, 1);
    const event = await db
      .selectFrom('webhook_deliveries')
      .innerJoin('webhook_events', 'webhook_events.id', 'webhook_deliveries.event_id')
      .select(['webhook_events.id', 'webhook_events.body'])
      .where('webhook_deliveries.endpoint_id', '=', endpoint.id)
      .executeTakeFirstOrThrow();
    const body = JSON.parse(event.body);
    const client = await app.inject({
      method: 'GET',
      url: `/api/v1/client/article/${article.json().slug}`,
      headers: { 'x-api-key': testApiKey },
    });
    expect(body).toEqual({
      id: event.id,
      type: 'article.published',
      timestamp: expect.any(String),
      data: client.json(),
    });
    // The network key's view: the canonical URL on every host site (a site-scoped endpoint picks its own).
    expect(body.data.urls).toEqual({ metro: 'https://metro.example.com/news/harbour-bridge-reopens' });
    expect(event.id).toMatch(/^evt_[0-9a-f]{32}$/);

    const log = await call('GET', `/api/v1/webhooks/${endpoint.id}/deliveries`);
    expect(log.statusCode).toBe(200);
    expect(log.json()).toMatchObject({
      data: [
        {
          eventId: event.id,
          type: 'article.published',
          status: 'pending',
          attempts: 0,
          statusCode: null,
          error: null,
          nextAttemptAt: expect.any(String),
          deliveredAt: null,
        },
      ],
      meta: { pagination: { page: 1, total: 1, pages: 1 } },
    });

    const deliveryId = log.json().data[0].id;
    const resend = await call('POST', `/api/v1/webhooks/${endpoint.id}/deliveries/${deliveryId}/resend`);
    expect(resend.statusCode).toBe(202);
    expect(resend.json()).toMatchObject({ id: deliveryId, eventId: event.id, status: 'pending' });
    const missing = await call('POST', `/api/v1/webhooks/${endpoint.id}/deliveries/${unknownId}/resend`);
    expect(missing.json().code).toBe('WEBHOOK_DELIVERY_NOT_FOUND');
    await call('PUT', `/api/v1/webhooks/${endpoint.id}`, { enabled: false });
    const whileDisabled = await call(
      'POST',
      `/api/v1/webhooks/${endpoint.id}/deliveries/${deliveryId}/resend`,
    );
    expect(whileDisabled.statusCode).toBe(409);
    expect(whileDisabled.json().code).toBe('WEBHOOK_DISABLED');
    expect((await call('GET', `/api/v1/webhooks/${unknownId}/deliveries`)).statusCode).toBe(404);
  });
});

describe("a delivery's attempt log", () => {
  it('lists every attempt, oldest first, with its answer and the next attempt', async () => {
    const endpoint = await create({ ...hook, events: ['article.published'] });
    const article = await call('POST', '/api/v1/article', { title: 'Ferry timetable', body: '<p>New.</p>' });
    await call('PUT', `/api/v1/article/publish/${article.json().id}`);
    await relayUntilDeliveries(endpoint.id, 1);
    const deliveryId = (await call('GET', `/api/v1/webhooks/${endpoint.id}/deliveries`)).json().data[0].id;
    const attemptsUrl = `/api/v1/webhooks/${endpoint.id}/deliveries/${deliveryId}/attempts`;
    expect((await call('GET', attemptsUrl)).json()).toEqual({ data: [] });

    const nextAttemptAt = new Date(Date.now() + 60_000);
    const answers = [
      {
        outcome: { kind: 'retry' as const, nextAttemptAt },
        statusCode: 503,
        error: 'HTTP 503',
        responseExcerpt: 'busy',
      },
      {
        outcome: { kind: 'retry' as const, nextAttemptAt },
        statusCode: null,
        error: 'ECONNRESET',
        responseExcerpt: null,
      },
      {
        outcome: { kind: 'delivered' as const },
        statusCode: 200,
        error: null,
        responseExcerpt: '{"ok":true}',
      },
    ];
    for (const [attempt, answer] of answers.entries()) {
      const claim = await claimWebhookDelivery(db, deliveryId, attempt, 1_000);
      if (!claim) throw new Error(`attempt ${attempt} not claimed`);
      await recordWebhookAttempt(db, claim, { ...answer, durationMs: 12.4 }, { disableAfterMs: 86_400_000 });
    }

    const log = await call('GET', attemptsUrl);
    expect(log.statusCode).toBe(200);
    expect(log.json().data).toEqual([
      {
        attempt: 1,
        attemptedAt: expect.any(String),
        statusCode: 503,
        durationMs: 12,
        error: 'HTTP 503',
        responseExcerpt: 'busy',
        nextAttemptAt: nextAttemptAt.toISOString(),
      },
      expect.objectContaining({ attempt: 2, statusCode: null, error: 'ECONNRESET', responseExcerpt: null }),
      expect.objectContaining({ attempt: 3, statusCode: 200, error: null, nextAttemptAt: null }),
    ]);
    expect(
      (await call('GET', `/api/v1/webhooks/${endpoint.id}/deliveries/${unknownId}/attempts`)).json().code,
    ).toBe('WEBHOOK_DELIVERY_NOT_FOUND');
    const other = await create();
    const elsewhere = await call('GET', `/api/v1/webhooks/${other.id}/deliveries/${deliveryId}/attempts`);
    expect(elsewhere.statusCode).toBe(404);
    expect((await call('GET', attemptsUrl, undefined, publisherToken)).statusCode).toBe(403);
  });
});

describe('with the development switch on', () => {
  it('accepts private targets', async () => {
    const devApp = await createTestApp({ env: { FEED_ALLOW_PRIVATE_ADDRESSES: 'true' } });
    try {
      const { adminToken: token } = await createDashboardUsers(devApp);
      const response = await devApp.app.inject({
        method: 'POST',
        url: '/api/v1/webhooks',
        headers: { authorization: `Bearer ${token}` },
        payload: { ...hook, url: 'http://127.0.0.1:8080/hook' },
      });
      expect(response.statusCode).toBe(201);
    } finally {
      await devApp.close();
    }
  });
});
