import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import {
  createTestDatabase,
  entryPointCwd,
  hostAndPort,
  startTcpProxy,
  testRedis,
  throughProxy,
  tsxLoader,
} from '@newsroom/test-support';
import { afterAll, describe, expect, inject, it, vi } from 'vitest';
import { insertArticle } from '../support/content-fixtures';

// The real server.ts in its own process, stopped with SIGTERM while requests are in flight. The requests
// are held in flight by pausing the database proxy in front of it, so none can finish before the signal.

vi.setConfig({ testTimeout: 60_000 });

const root = resolve(import.meta.dirname, '../../../..');
const database = await createTestDatabase();
const redis = testRedis();
const postgres = hostAndPort(inject('pgServerUrl'), 5432);
const proxy = await startTcpProxy(postgres.host, postgres.port);
for (let i = 0; i < 30; i++) await insertArticle(database.db, { slug: `story-${i}` });
let api: ChildProcess | undefined;
afterAll(async () => {
  proxy.resume();
  if (api && api.exitCode === null) {
    api.kill('SIGKILL');
    await once(api, 'exit');
  }
  await proxy.close();
  await database.destroy();
});

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

async function until(condition: () => boolean | Promise<boolean>, what: string, ms = 30_000) {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the API process on SIGTERM', () => {
  it('completes the requests in flight, then exits 0', async () => {
    const port = await freePort();
    let output = '';
    api = spawn(process.execPath, ['--import', tsxLoader, resolve(root, 'apps/api/src/server.ts')], {
      cwd: entryPointCwd,
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'test',
        // debug: each request's arrival is logged too ('incoming request'), which this test waits for.
        LOG_LEVEL: 'debug',
        PORT: String(port),
        DATABASE_URL: throughProxy(database.url, proxy),
        REDIS_URL: redis.url,
        QUEUE_PREFIX: redis.prefix,
        API_KEY: 'sigterm-test-api-key-0123',
        JWT_SECRET: 'sigterm-test-jwt-secret-0123456789abcdef',
      },
    });
    const child = api;
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    const exited = once(child, 'exit');
    const base = `http://127.0.0.1:${port}`;
    const get = (path: string) =>
      fetch(`${base}${path}`, { headers: { 'x-api-key': 'sigterm-test-api-key-0123' } });
    await until(
      () =>
        child.exitCode === null
          ? get('/health').then(
              (response) => response.ok,
              () => false,
            )
          : Promise.reject(new Error(`the API exited: ${output}`)),
      'the API to start',
    );
    expect((await get('/api/v1/client/posts')).status).toBe(200);

    proxy.pause();
    const inFlight = Array.from({ length: 20 }, (_, i) =>
      get(`/api/v1/client/posts?limit=1&page=${i + 1}`).then(async (response) => ({
        status: response.status,
        body: (await response.json()) as { data: Array<{ slug: string }> },
      })),
    );
    const received = () =>
      output
        .split('\n')
        .filter((line) => line.includes('incoming request') && line.includes('limit=1&page='));
    await until(() => received().length === 20, 'all 20 requests to reach the server');

    child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    expect(child.exitCode).toBeNull(); // still draining
    proxy.resume();

    const responses = await Promise.all(inFlight);
    expect(responses.map((response) => response.status)).toEqual(Array(20).fill(200));
    // Newest first: page n (one article a page) is story-(30 - n).
    expect(responses.map((response) => response.body.data[0]?.slug)).toEqual(
      Array.from({ length: 20 }, (_, i) => `story-${29 - i}`),
    );
    const [code] = await exited;
    expect(code, output.slice(-2_000)).toBe(0);
  });
});
