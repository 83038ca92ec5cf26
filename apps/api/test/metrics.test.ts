import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { createMetricsRegistry, Gauge } from '@newsroom/metrics';
import { parsePrometheusText } from '@newsroom/test-support';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { insertArticle } from './support/content-fixtures';
import { createTestApp, testApiKey } from './support/test-app';

// Six failed logins hash six dummy passwords: seconds on a busy 2-core machine.
vi.setConfig({ testTimeout: 30_000 });

const metricsToken = 'metrics-token-for-tests-0123456789';
const metricsRegistry = createMetricsRegistry();
// A collector that fails on demand, as one reading a dependency might.
let collectorFails = false;
new Gauge({
  name: 'test_collector',
  help: 'fails when told to',
  registers: [metricsRegistry],
  collect() {
    if (collectorFails) throw new Error('secret collector detail');
    this.set(1);
  },
});
const { app, db, close } = await createTestApp({ env: { METRICS_TOKEN: metricsToken }, metricsRegistry });
afterAll(close);

const scrapeResponse = (authorization: string | null = `Bearer ${metricsToken}`) =>
  app.inject({ method: 'GET', url: '/metrics', headers: authorization === null ? {} : { authorization } });
async function scrape() {
  const response = await scrapeResponse();
  expect(response.statusCode, response.body).toBe(200);
  return parsePrometheusText(response.body);
}
const client = (url: string) =>
  app.inject({ method: 'GET', url: `/api/v1/client${url}`, headers: { 'x-api-key': testApiKey } });

describe('GET /metrics', () => {
  it('answers 401 in the error shape without the token, with a wrong one, or another scheme', async () => {
    for (const authorization of [
      null,
      'Bearer wrong-token-0123456789-0123456789',
      `Bearer ${metricsToken}x`,
      `Basic ${Buffer.from(`metrics:${metricsToken}`).toString('base64')}`,
      metricsToken,
    ]) {
      const response = await scrapeResponse(authorization);
      expect(response.statusCode, String(authorization)).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer');
      expect(response.json()).toMatchObject({ statusCode: 401, code: 'UNAUTHORIZED' });
      expect(response.body).not.toContain('newsroom_');
    }
  });

  it('is listed in the OpenAPI document', async () => {
    const document = (await app.inject({ method: 'GET', url: '/docs/json' })).json();
    expect(Object.keys(document.paths['/metrics'])).toEqual(['get']);
  });

  it('serves Prometheus text with the default process metrics and the pool gauges', async () => {
    const response = await scrapeResponse();
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers['cache-control']).toBe('no-store');
    const metrics = parsePrometheusText(response.body);
    expect(metrics.types.get('process_cpu_user_seconds_total')).toBe('counter');
    expect(metrics.types.get('nodejs_heap_size_used_bytes')).toBe('gauge');
    expect(metrics.find('nodejs_eventloop_lag_seconds')).toHaveLength(1);
    // The test database's pool holds 5 connections at most.
    expect(metrics.find('newsroom_db_pool_connections_max')[0]?.value).toBe(5);
    for (const name of [
      'newsroom_db_pool_connections_in_use',
      'newsroom_db_pool_connections_idle',
      'newsroom_db_pool_waiting',
    ]) {
      expect(metrics.types.get(name), name).toBe('gauge');
      expect(metrics.find(name)[0]?.value, name).toBeGreaterThanOrEqual(0);
    }
  });

  it('times requests by route pattern and status class, never by raw URL', async () => {
    const { slug } = await insertArticle(db, { slug: 'metrics-story' });
    expect((await client(`/article/${slug}`)).statusCode).toBe(200);
    expect((await client('/article/no-such-slug')).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/no/such/route?secret=1' })).statusCode).toBe(404);

    const metrics = await scrape();
    const route = '/api/v1/client/article/:slug';
    expect(metrics.types.get('newsroom_http_request_duration_seconds')).toBe('histogram');
    const count = (labels: Record<string, string>) =>
      metrics.sum('newsroom_http_request_duration_seconds_count', labels);
    expect(count({ method: 'GET', route, status_class: '2xx' })).toBe(1);
    expect(count({ method: 'GET', route, status_class: '4xx' })).toBe(1);
    expect(count({ method: 'GET', route: 'unmatched', status_class: '4xx' })).toBe(1);
    const buckets = metrics.find('newsroom_http_request_duration_seconds_bucket', {
      route,
      status_class: '2xx',
    });
    expect(buckets.find((bucket) => bucket.labels.le === '+Inf')?.value).toBe(1);
    // Bounded labels: no slug, no raw path, no query string.
    const labelValues = metrics.samples.flatMap((sample) => Object.values(sample.labels));
    for (const raw of ['metrics-story', 'no-such-slug', '/no/such/route', 'secret']) {
      expect(
        labelValues.some((value) => value.includes(raw)),
        raw,
      ).toBe(false);
    }
  });

  it('answers a failed collection with the bare 500 of the error handler, and recovers', async () => {
    collectorFails = true;
    try {
      const response = await scrapeResponse();
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({
        statusCode: 500,
        code: 'INTERNAL_ERROR',
        error: 'Internal Server Error',
        message: 'Internal server error',
      });
    } finally {
      collectorFails = false;
    }
    expect((await scrapeResponse()).statusCode).toBe(200);
  });

  it('does not count its own scrapes', async () => {
    await scrape();
    const metrics = await scrape();
    expect(metrics.find('newsroom_http_request_duration_seconds_count', { route: '/metrics' })).toEqual([]);
    expect(metrics.find('newsroom_http_requests_in_flight')[0]?.value).toBe(0);
  });

  it('counts client cache hits and misses', async () => {
    const before = await scrape();
    const { slug } = await insertArticle(db, { slug: 'cached-story' });
    const grew = async (labels: Record<string, string>) =>
      (await scrape()).sum('newsroom_client_cache_lookups_total', labels) -
      before.sum('newsroom_client_cache_lookups_total', labels);
    // The first read loads and keeps the article; a repeat is answered from memory. (The insert's change
    // notification may arrive after the first read and empty the cache once: hence read until a hit.)
    await vi.waitFor(async () => {
      expect((await client(`/article/${slug}`)).statusCode).toBe(200);
      expect(await grew({ cache: 'responses', result: 'hit' })).toBeGreaterThanOrEqual(1);
    });
    expect(await grew({ cache: 'responses', result: 'miss' })).toBeGreaterThanOrEqual(1);
    // A page read looks its articles up in the article JSON cache.
    expect((await client('/posts')).statusCode).toBe(200);
    expect(
      (await scrape()).sum('newsroom_client_cache_lookups_total', { cache: 'article_json' }),
    ).toBeGreaterThan(0);
  });

  it('counts a 429 by route and error code, and a login refused so as a lockout', async () => {
    const login = () =>
      app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: 'locked.out@example.com', password: 'not the password' },
        remoteAddress: '10.9.0.1',
      });
    let refused = await login();
    for (let attempt = 0; attempt < 20 && refused.statusCode === 401; attempt++) refused = await login();
    expect(refused.statusCode).toBe(429);
    const { code } = refused.json() as { code: string };

    const metrics = await scrape();
    const route = '/api/v1/auth/login';
    expect(metrics.find('newsroom_http_too_many_requests_total', { route, code })[0]?.value).toBe(1);
    expect(metrics.find('newsroom_login_lockouts_total')[0]?.value).toBe(1);
    expect(
      metrics.sum('newsroom_http_request_duration_seconds_count', { route, status_class: '4xx' }),
    ).toBeGreaterThanOrEqual(6);
  });

  it('counts a request in flight until its response ends, also when the client leaves', async () => {
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    // A login whose body never completes: received (onRequest ran), no response yet.
    const socket = connect(Number(port), '127.0.0.1');
    socket.on('error', () => {});
    socket.write(
      'POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"em',
    );
    await vi.waitFor(async () =>
      expect((await scrape()).find('newsroom_http_requests_in_flight')[0]?.value).toBe(1),
    );
    socket.destroy();
    await vi.waitFor(async () =>
      expect((await scrape()).find('newsroom_http_requests_in_flight')[0]?.value).toBe(0),
    );
  });
});

describe('without METRICS_TOKEN', () => {
  it('serves no /metrics route, and two apps in one process keep separate registries', async () => {
    const other = await createTestApp({ metricsRegistry: createMetricsRegistry() });
    const unmatched = async () =>
      (await scrape()).sum('newsroom_http_request_duration_seconds_count', { route: 'unmatched' });
    const before = await unmatched();
    try {
      const response = await other.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${metricsToken}` },
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'ROUTE_NOT_FOUND' });
      // That request was counted by the other app's registry, not by this file's app.
      expect(await unmatched()).toBe(before);
      const otherCounts = parsePrometheusText(await (other.app.metrics?.registry.metrics() ?? ''));
      expect(otherCounts.sum('newsroom_http_request_duration_seconds_count', { route: 'unmatched' })).toBe(1);
    } finally {
      await other.close();
    }
  });
});

describe('logging', () => {
  it('logs no scrape at info, while other requests are logged', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, callback) {
        lines.push(String(chunk));
        callback();
      },
    });
    const logged = await createTestApp({
      env: { METRICS_TOKEN: metricsToken },
      metricsRegistry: createMetricsRegistry(),
      fastify: { logger: { level: 'info', stream } },
    });
    try {
      const headers = { authorization: `Bearer ${metricsToken}` };
      expect((await logged.app.inject({ method: 'GET', url: '/metrics', headers })).statusCode).toBe(200);
      expect((await logged.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
      expect((await logged.app.inject({ method: 'GET', url: '/api/v1/client/posts' })).statusCode).toBe(401);
      expect(lines.some((line) => line.includes('/api/v1/client/posts'))).toBe(true);
      expect(lines.filter((line) => line.includes('/metrics'))).toEqual([]);
    } finally {
      await logged.close();
    }
  });
});
