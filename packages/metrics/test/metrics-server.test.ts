import { Counter, Gauge } from 'prom-client';
import { afterAll, describe, expect, it } from 'vitest';
import { createMetricsRegistry, startMetricsServer } from '../src';

const token = 'metrics-token-0123456789';
const registry = createMetricsRegistry();
const jobs = new Counter({ name: 'test_jobs_total', help: 'jobs', registers: [registry] });
let failCollect = false;
new Gauge({
  name: 'test_flaky',
  help: 'a gauge whose collect can fail',
  registers: [registry],
  collect() {
    if (failCollect) throw new Error('backend down');
    this.set(1);
  },
});
const errors: unknown[] = [];
const server = await startMetricsServer({
  registry,
  token,
  host: '127.0.0.1',
  port: 0,
  onError: (error) => errors.push(error),
});
afterAll(() => server.close());

const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
  fetch(`${server.url}${path}`, { method, headers, signal: AbortSignal.timeout(5_000) });
const withToken = { authorization: `Bearer ${token}` };

describe('the metrics listener', () => {
  it('listens on the loopback address it was given', () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
  });

  it('serves the registry as Prometheus text to holders of the token', async () => {
    jobs.inc(3);
    const response = await get('/metrics', withToken);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const body = await response.text();
    expect(body).toMatch(/^test_jobs_total 3$/m);
    expect(body).toMatch(/^process_cpu_user_seconds_total /m);
  });

  it('answers 401 without the token or with a wrong one', async () => {
    const refused: Array<Record<string, string>> = [{}, { authorization: 'Bearer wrong-token-0123456789' }];
    for (const headers of refused) {
      const response = await get('/metrics', headers);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      expect(await response.json()).toMatchObject({ statusCode: 401, code: 'UNAUTHORIZED' });
    }
  });

  it('answers 404 elsewhere and 405 to other methods', async () => {
    expect((await get('/', withToken)).status).toBe(404);
    expect((await get('/metrics/x', withToken)).status).toBe(404);
    const post = await get('/metrics', withToken, 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('answers 500 in the error shape when a collect function fails, and recovers', async () => {
    failCollect = true;
    const failed = await get('/metrics', withToken);
    expect(failed.status).toBe(500);
    expect(await failed.json()).toMatchObject({ code: 'INTERNAL_ERROR' });
    expect(errors).toHaveLength(1);
    failCollect = false;
    expect((await get('/metrics', withToken)).status).toBe(200);
  });
});
