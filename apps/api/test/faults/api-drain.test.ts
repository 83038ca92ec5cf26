import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestDatabase, entryPointCwd, testRedis, tsxLoader } from '@newsroom/test-support';
import { afterAll, describe, expect, it, vi } from 'vitest';

// The real server.ts under load, stopped with SIGTERM, in front of a "load balancer" as they work: it polls
// /ready and stops sending new requests once it answers 503. The API must keep serving until the balancer
// has noticed (SHUTDOWN_DRAIN_MS), so no request meets a closing listener or a connection closed under it.

vi.setConfig({ testTimeout: 90_000 });

const drainMs = 2_000;
const root = resolve(import.meta.dirname, '../../../..');
const apiKey = 'drain-test-api-key-0123';
const database = await createTestDatabase();
const redis = testRedis();
let api: ChildProcess | undefined;
afterAll(async () => {
  if (api && api.exitCode === null && api.signalCode === null) {
    api.kill('SIGKILL');
    await once(api, 'exit');
  }
  await database.destroy();
});

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

describe('the API process on SIGTERM under load', () => {
  it('answers /ready 503 and keeps serving through the drain, then exits 0: no request fails', async () => {
    const port = await freePort();
    let output = '';
    const child = spawn(process.execPath, ['--import', tsxLoader, resolve(root, 'apps/api/src/server.ts')], {
      cwd: entryPointCwd,
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        PORT: String(port),
        DATABASE_URL: database.url,
        REDIS_URL: redis.url,
        QUEUE_PREFIX: redis.prefix,
        API_KEY: apiKey,
        JWT_SECRET: 'drain-test-jwt-secret-0123456789abcdef',
        SHUTDOWN_DRAIN_MS: String(drainMs),
      },
    });
    api = child;
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    const exited = once(child, 'exit');
    const base = `http://127.0.0.1:${port}`;
    for (const deadline = Date.now() + 60_000; ; await sleep(100)) {
      if (child.exitCode !== null) throw new Error(`the API exited: ${output}`);
      if (Date.now() > deadline) throw new Error(`the API did not start: ${output}`);
      if (
        await fetch(`${base}/ready`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
    }

    // The balancer: a health check every 50 ms; the first answer that is not 200 takes the replica out.
    let inRotation = true;
    let signalledAt = 0;
    const seen: { ready?: { status: number; body: string; afterSignalMs: number } } = {};
    const balancer = (async () => {
      while (inRotation) {
        await sleep(50);
        const answer = await fetch(`${base}/ready`).then(
          async (response) => ({ status: response.status, body: await response.text() }),
          (error: Error) => ({ status: 0, body: String(error.cause ?? error) }),
        );
        if (answer.status !== 200) {
          seen.ready = { ...answer, afterSignalMs: Date.now() - signalledAt };
          inRotation = false;
        }
      }
    })();
    // Keep-alive clients, as a balancer's upstream pool: each loop reuses its connections.
    const failures: string[] = [];
    let served = 0;
    let servedAfterSignal = 0;
    const clients = Array.from({ length: 8 }, async () => {
      while (inRotation) {
        try {
          const response = await fetch(`${base}/api/v1/client/posts?limit=5`, {
            headers: { 'x-api-key': apiKey },
            signal: AbortSignal.timeout(10_000),
          });
          await response.arrayBuffer();
          if (response.status !== 200) failures.push(`status ${response.status}`);
          served++;
          if (signalledAt) servedAfterSignal++;
        } catch (error) {
          failures.push(String((error as Error).cause ?? error));
        }
      }
    });
    await sleep(1_000);
    signalledAt = Date.now();
    child.kill('SIGTERM');
    await Promise.race([
      Promise.all([balancer, ...clients]),
      sleep(15_000).then(() => {
        inRotation = false;
        throw new Error('the balancer never took the replica out');
      }),
    ]);
    const [code] = await exited;
    const stoppedAfterMs = Date.now() - signalledAt;

    expect(failures.slice(0, 10), output.slice(-2_000)).toEqual([]);
    expect(seen.ready?.status).toBe(503);
    expect(JSON.parse(seen.ready?.body ?? '{}')).toMatchObject({ status: 'not_ready' });
    // Noticed within a few health checks, well inside the drain: the replica was still serving.
    expect(seen.ready?.afterSignalMs).toBeLessThan(drainMs);
    expect(served).toBeGreaterThan(0);
    expect(servedAfterSignal).toBeGreaterThan(0);
    expect(stoppedAfterMs).toBeGreaterThanOrEqual(drainMs);
    expect(code, output.slice(-2_000)).toBe(0);
    console.info(
      `drain: ${served} requests served (${servedAfterSignal} after SIGTERM), /ready 503 ` +
        `${seen.ready?.afterSignalMs} ms after SIGTERM, exit ${stoppedAfterMs} ms after`,
    );
  });
});
