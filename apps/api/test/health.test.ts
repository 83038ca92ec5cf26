import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from './support/test-app';

const up = await createTestApp();
// A Redis that is not there: port 1 on loopback refuses at once.
const redisDown = await createTestApp({ redisUrl: 'redis://127.0.0.1:1' });
afterAll(async () => {
  await up.close();
  await redisDown.close();
});

describe('health routes', () => {
  it('answers liveness', async () => {
    const response = await up.app.inject({ method: 'GET', url: '/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('is ready when Postgres and Redis answer', async () => {
    const response = await up.app.inject({ method: 'GET', url: '/ready' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ready', checks: { postgres: 'up', redis: 'up' } });
  });

  // Ready means "can serve client reads", which needs Postgres only (see the README).
  it('stays ready when only Redis is down, and reports it, quickly', async () => {
    const started = Date.now();
    const response = await redisDown.app.inject({ method: 'GET', url: '/ready' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ready', checks: { postgres: 'up', redis: 'down' } });
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
