import { type AddressInfo, createServer, type Socket } from 'node:net';
import { createMetricsRegistry, startMetricsServer } from '@newsroom/metrics';
import { createFeedImportQueue, createRedisConnection } from '@newsroom/queue';
import { parsePrometheusText, startFeedServer } from '@newsroom/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { createWorkerMetrics } from '../src/imports/import-metrics';
import { createWorkerHarness, insertPublisher, runFetch } from './support/worker-harness';

// The worker's metrics, recorded by a worker built like main.ts builds one and scraped through the listener.

const token = 'metrics-token-for-tests-0123456789';
const harness = await createWorkerHarness();
const feeds = await startFeedServer();
const registry = createMetricsRegistry();
await harness.startWorker({ metricsRegistry: registry });
const listener = await startMetricsServer({ registry, token, host: '127.0.0.1', port: 0 });
afterAll(async () => {
  await listener.close();
  await harness.close();
  await feeds.close();
});

const items = (prefix: string, count: number) =>
  Array.from(
    { length: count },
    (_, i) =>
      `<item><guid>${prefix}-${i}</guid><title>${prefix} ${i}</title><description>Body</description></item>`,
  ).join('');
const rss = (body: string) =>
  `<?xml version="1.0"?><rss version="2.0"><channel><title>T</title><link>https://t.example/</link>${body}</channel></rss>`;

async function scrape(authorization = `Bearer ${token}`) {
  const response = await fetch(`${listener.url}/metrics`, {
    headers: { authorization },
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, text: await response.text() };
}

describe('the worker metrics', () => {
  it('count jobs by name and result, fetches by outcome, items and feed errors by code', async () => {
    feeds.route('/news.rss', { body: rss(items('news', 3)), etag: '"v1"' });
    feeds.route('/html', { body: '<html><body>not a feed</body></html>', contentType: 'text/html' });
    const news = await insertPublisher(harness.db, { name: 'News', feedUrl: feeds.url('/news.rss') });
    const broken = await insertPublisher(harness.db, { name: 'Broken', feedUrl: feeds.url('/html') });

    expect((await runFetch(harness.queue, news)).state).toBe('completed');
    // Unchanged feed: a conditional GET answered 304.
    expect((await runFetch(harness.queue, news)).state).toBe('completed');
    // A new item beside the three known ones.
    feeds.route('/news.rss', { body: rss(items('news', 4)), etag: '"v2"' });
    expect((await runFetch(harness.queue, news)).state).toBe('completed');
    // Not a feed: a permanent failure, no retry.
    expect((await runFetch(harness.queue, broken)).state).toBe('failed');

    const { status, text } = await scrape();
    expect(status).toBe(200);
    const metrics = parsePrometheusText(text);
    const value = (name: string, labels: Record<string, string> = {}) => metrics.sum(name, labels);

    expect(value('newsroom_worker_jobs_total', { name: 'fetch-feed', result: 'completed' })).toBe(3);
    expect(value('newsroom_worker_jobs_total', { name: 'fetch-feed', result: 'failed' })).toBe(1);
    expect(value('newsroom_worker_jobs_total', { name: 'fetch-feed', result: 'retried' })).toBe(0);
    expect(value('newsroom_worker_feed_items_total', { result: 'inserted' })).toBe(4);
    expect(value('newsroom_worker_feed_items_total', { result: 'skipped' })).toBe(3);
    expect(value('newsroom_worker_feed_errors_total', { code: 'NOT_A_FEED' })).toBe(1);

    expect(metrics.types.get('newsroom_worker_feed_fetch_duration_seconds')).toBe('histogram');
    const fetches = (outcome: string) =>
      value('newsroom_worker_feed_fetch_duration_seconds_count', { outcome });
    // The HTML page was fetched fine: it failed at parsing.
    expect([fetches('fetched'), fetches('not_modified'), fetches('error')]).toEqual([3, 1, 0]);

    // Queue depth from BullMQ at scrape time.
    expect(value('newsroom_worker_queue_up')).toBe(1);
    expect(value('newsroom_worker_queue_jobs', { state: 'completed' })).toBe(3);
    expect(value('newsroom_worker_queue_jobs', { state: 'failed' })).toBe(1);
    expect(value('newsroom_worker_queue_jobs', { state: 'waiting' })).toBe(0);
    expect(metrics.find('newsroom_worker_queue_jobs').map((sample) => sample.labels.state)).toEqual(
      expect.arrayContaining(['waiting', 'active', 'delayed', 'prioritized', 'waiting-children']),
    );

    expect(metrics.find('newsroom_db_pool_connections_max')[0]?.value).toBe(5);
    expect(metrics.types.get('process_resident_memory_bytes')).toBe('gauge');

    // Bounded labels: no publisher ids, URLs or guids.
    const labelValues = metrics.samples.flatMap((sample) => Object.values(sample.labels)).join(' ');
    for (const raw of [news, broken, '127.0.0.1', 'news-0', '/html']) expect(labelValues).not.toContain(raw);
  });

  it('count a transient failure as retried, then failed when the attempts run out', async () => {
    feeds.route('/down.rss', { body: 'down', status: 503 });
    const down = await insertPublisher(harness.db, { name: 'Down', feedUrl: feeds.url('/down.rss') });
    const before = parsePrometheusText((await scrape()).text);
    expect((await runFetch(harness.queue, down)).state).toBe('failed');
    const after = parsePrometheusText((await scrape()).text);
    const grew = (name: string, labels: Record<string, string>) =>
      after.sum(name, labels) - before.sum(name, labels);
    const attempts = (await harness.queue.getJobs(['failed'])).find((job) => job.data.publisherId === down)
      ?.attemptsMade as number;
    expect(attempts).toBeGreaterThan(1);
    expect(grew('newsroom_worker_jobs_total', { name: 'fetch-feed', result: 'retried' })).toBe(attempts - 1);
    expect(grew('newsroom_worker_jobs_total', { name: 'fetch-feed', result: 'failed' })).toBe(1);
    expect(grew('newsroom_worker_feed_errors_total', { code: 'HTTP_STATUS' })).toBe(attempts);
    expect(grew('newsroom_worker_feed_fetch_duration_seconds_count', { outcome: 'error' })).toBe(attempts);
  });

  it('are refused without the token', async () => {
    expect((await scrape('')).status).toBe(401);
    expect((await scrape('Bearer wrong-token-0123456789')).status).toBe(401);
  });
});

describe('a scrape while Redis does not answer', () => {
  it('leaves the queue gauges out and says so, instead of hanging', async () => {
    // A "Redis" that accepts connections and never answers: commands of a worker connection wait forever.
    const sockets: Socket[] = [];
    const silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const connection = createRedisConnection(`redis://127.0.0.1:${port}`, 'worker');
    connection.on('error', () => {});
    const queue = createFeedImportQueue({ connection, prefix: 'silent' });
    queue.on('error', () => {});
    const errors: unknown[] = [];
    const silentRegistry = createMetricsRegistry();
    createWorkerMetrics(silentRegistry, { db: harness.db, queue, onError: (error) => errors.push(error) });
    try {
      const metrics = parsePrometheusText(await silentRegistry.metrics());
      expect(metrics.sum('newsroom_worker_queue_up')).toBe(0);
      expect(metrics.find('newsroom_worker_queue_jobs')).toEqual([]);
      expect(metrics.find('newsroom_db_pool_connections_max')).toHaveLength(1);
      expect(errors).toHaveLength(1);
    } finally {
      connection.disconnect();
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });
});
