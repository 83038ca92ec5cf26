import { readFeedFixture, startFeedServer } from '@newsroom/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { createWorkerLogger } from '../src/logger';
import { createWorkerHarness, insertPublisher, waitForJob } from './support/worker-harness';

const harness = await createWorkerHarness();
const { db, queue } = harness;
const server = await startFeedServer({
  '/planet.rss': { body: readFeedFixture('heraldsun.rss'), etag: '"v1"' },
});
const raw: string[] = [];
const logger = await createWorkerLogger(
  { env: 'test', logLevel: 'debug' },
  { write: (line: string) => void raw.push(line) },
);
await harness.startWorker({ logger });
afterAll(async () => {
  await harness.close();
  await server.close();
});

/** The keys at the top level of one JSON line, duplicates kept (JSON.parse would keep only the last). */
function topLevelKeys(line: string): string[] {
  const keys: string[] = [];
  let depth = 0;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (char === '"') {
      let end = i + 1;
      while (line[end] !== '"') end += line[end] === '\\' ? 2 : 1;
      if (depth === 1 && line[end + 1] === ':') keys.push(JSON.parse(line.slice(i, end + 1)));
      i = end;
    } else if (char === '{' || char === '[') depth++;
    else if (char === '}' || char === ']') depth--;
  }
  return keys;
}

const lines = () => raw.map((line) => JSON.parse(line) as Record<string, unknown>);
const fetchNow = async (publisherId: string, requestId?: string) => {
  const job = await queue.add('fetch-feed', {
    publisherId,
    trigger: 'manual',
    ...(requestId ? { requestId } : {}),
  });
  return { id: job.id, ...(await waitForJob(queue, job.id as string)) };
};

describe('worker logs', () => {
  it('say once per import what it did: publisher, fetched, inserted, skipped, notModified, duration', async () => {
    const publisherId = await insertPublisher(db, { feedUrl: server.url('/planet.rss') });
    const first = await fetchNow(publisherId, 'click-1');
    const second = await fetchNow(publisherId);
    const summaries = lines().filter((line) => line.msg === 'feed imported');
    expect(summaries).toEqual([
      expect.objectContaining({
        level: 30,
        name: 'worker',
        jobId: first.id,
        publisherId,
        trigger: 'manual',
        requestId: 'click-1',
        fetched: expect.any(Number),
        inserted: expect.any(Number),
        skipped: 0,
        notModified: false,
        durationMs: expect.any(Number),
      }),
      expect.objectContaining({ jobId: second.id, publisherId, notModified: true, inserted: 0 }),
    ]);
    expect(summaries[0]?.inserted).toBeGreaterThan(0);
    expect(summaries[0]?.inserted).toBe(summaries[0]?.fetched);
    expect(summaries[1]).not.toHaveProperty('requestId');
  });

  it("carry the request id of the API request into a failed job's line", async () => {
    const publisherId = await insertPublisher(db, { feedUrl: server.url('/gone.rss') });
    const failed = await fetchNow(publisherId, 'click-2');
    expect(failed.state).toBe('failed');
    expect(lines().find((line) => line.msg === 'job failed' && line.jobId === failed.id)).toMatchObject({
      job: 'fetch-feed',
      requestId: 'click-2',
    });
  });

  it("have exactly one name key per line, the logger's own", () => {
    expect(raw.length).toBeGreaterThan(3);
    for (const line of raw) {
      expect(
        topLevelKeys(line).filter((key) => key === 'name'),
        line,
      ).toEqual(['name']);
      expect(JSON.parse(line).name).toBe('worker');
    }
  });
});
