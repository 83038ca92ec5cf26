import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestDatabase, entryPointCwd, testRedis, tsxLoader } from '@newsroom/test-support';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, inject, it, vi } from 'vitest';
import { workerProcessEnv } from '../../../worker/test/support/worker-harness';

// A failover drill: the API and the worker run as production runs them (server.ts and main.ts, configured
// by env only), under light load (admin writes the API acknowledges, admin and client reads), while every
// backend of this file's own database is terminated again and again (what a failover, a restart, a pooler
// or idle_session_timeout does). The Postgres server is shared: only this database's backends are ended.

vi.setConfig({ testTimeout: 120_000 });

const drillMs = 15_000;
const root = resolve(import.meta.dirname, '../../../..');
const apiKey = 'failover-test-api-key-0123';
const admin = { email: 'failover@example.com', password: 'failover admin password' };
const database = await createTestDatabase();
const databaseName = new URL(database.url).pathname.slice(1);
const redis = testRedis();
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
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

/**
 * node with tsx's loader (not the tsx CLI, whose child would outlive a kill), from an empty folder (no .env,
 * no dashboard build picked up); keeps the output's tail.
 */
function start(script: string, env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', tsxLoader, resolve(root, script)], {
    cwd: entryPointCwd,
    env,
  });
  children.push(child);
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return { child, output: () => output };
}

/** Whether the worker holds a connection to this file's database (it reconnects on demand). */
async function workerConnected(): Promise<boolean> {
  const result = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
    where datname = ${databaseName} and application_name = 'newsroom-worker'`.execute(database.db);
  return (result.rows[0]?.n ?? 0) > 0;
}

async function within(boundMs: number, what: string, check: () => Promise<boolean>) {
  for (const deadline = Date.now() + boundMs; Date.now() < deadline; await sleep(50)) {
    if (await check().catch(() => false)) return;
  }
  throw new Error(`${what} not within ${boundMs} ms`);
}

/** Ends every backend of this file's database but the terminator's own, from a session on another one. */
async function startTerminator() {
  const client = new pg.Client({ connectionString: inject('pgServerUrl') });
  client.on('error', () => {});
  await client.connect();
  let terminated = 0;
  let running = true;
  const began = Date.now();
  const loop = (async () => {
    while (running) {
      // Waves: 1 s of terminations 5-30 ms apart (a failover as the review ran it), then 250 ms of calm in
      // which writes can complete, so acknowledged writes are many enough to check.
      if ((Date.now() - began) % 1_250 >= 1_000) {
        await sleep(20);
        continue;
      }
      const { rowCount } = await client.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
          where datname = $1 and pid <> pg_backend_pid()`,
        [databaseName],
      );
      terminated += rowCount ?? 0;
      await sleep(5 + Math.random() * 25);
    }
  })();
  return {
    get terminated() {
      return terminated;
    },
    async stop() {
      running = false;
      await loop;
      await client.end();
    },
  };
}

describe('a failover drill: every backend of the database terminated, repeatedly, under load', () => {
  it('keeps the API and the worker up, answers 2xx or 503, loses no acknowledged write, and recovers', async () => {
    const port = await freePort();
    const api = start('apps/api/src/server.ts', {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      LOG_LEVEL: 'error',
      PORT: String(port),
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      QUEUE_PREFIX: redis.prefix,
      API_KEY: apiKey,
      JWT_SECRET: 'failover-test-jwt-secret-0123456789abcdef',
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
    });
    // The relay and the sweep query Postgres every few ms, so the worker always has connections to lose.
    const worker = start(
      'apps/worker/src/main.ts',
      workerProcessEnv(database.url, redis, {
        LOG_LEVEL: 'error',
        WEBHOOK_RELAY_INTERVAL_MS: '20',
        WEBHOOK_SWEEP_INTERVAL_MS: '50',
      }),
    );
    const base = `http://127.0.0.1:${port}`;
    const ready = () => fetch(`${base}/ready`).then((response) => response.status === 200);
    await within(60_000, `the API ready (${api.output()})`, async () => {
      if (api.child.exitCode !== null) throw new Error(`the API exited: ${api.output()}`);
      return ready();
    });
    const login = await fetch(`${base}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(admin),
    });
    expect(login.status).toBe(200);
    const { token } = (await login.json()) as { token: string };
    const asAdmin = { authorization: `Bearer ${token}` };
    await within(60_000, `the worker on the database (${worker.output()})`, workerConnected);

    const acknowledged: string[] = [];
    const statuses = new Map<number, number>();
    const unexpected: string[] = [];
    const request = async (what: string, url: string, init: RequestInit = {}) => {
      try {
        const response = await fetch(`${base}${url}`, { ...init, signal: AbortSignal.timeout(15_000) });
        const body = await response.text();
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        const ok = (response.status >= 200 && response.status < 300) || response.status === 503;
        if (!ok) unexpected.push(`${what}: ${response.status} ${body.slice(0, 200)}`);
        return response.status < 300 ? body : undefined;
      } catch (error) {
        unexpected.push(`${what}: ${String((error as Error).cause ?? error)}`);
        return undefined;
      }
    };
    let loading = true;
    const loop = async (step: (n: number) => Promise<unknown>) => {
      for (let n = 0; loading; n++) {
        await step(n);
        await sleep(10);
      }
    };
    const terminator = await startTerminator();
    const started = Date.now();
    const write = (writer: string) => async (n: number) => {
      const body = await request('create', '/api/v1/article', {
        method: 'POST',
        headers: { ...asAdmin, 'content-type': 'application/json' },
        body: JSON.stringify({ title: `Failover story ${writer}${n}` }),
      });
      if (body) acknowledged.push((JSON.parse(body) as { id: string }).id);
    };
    const load = Promise.all([
      loop(write('a')),
      loop(write('b')),
      loop(async () => {
        const id = acknowledged.at(-1);
        await request('admin read', id ? `/api/v1/article/${id}` : '/api/v1/article', { headers: asAdmin });
      }),
      loop(() =>
        request('client read', '/api/v1/client/posts?limit=5', { headers: { 'x-api-key': apiKey } }),
      ),
    ]);
    await sleep(drillMs);
    await terminator.stop();
    loading = false;
    await load;
    const drillEnded = Date.now();

    const answered = [...statuses.values()].reduce((sum, n) => sum + n, 0);
    const figures =
      `${drillEnded - started} ms, ${terminator.terminated} backends terminated, ${answered} answers ` +
      `${JSON.stringify(Object.fromEntries(statuses))}, ${acknowledged.length} writes acknowledged`;
    expect(api.child.exitCode, `the API exited: ${api.output()}`).toBeNull();
    expect(worker.child.exitCode, `the worker exited: ${worker.output()}`).toBeNull();
    expect(unexpected.slice(0, 20), `${figures}\n${api.output()}`).toEqual([]);
    expect(terminator.terminated).toBeGreaterThan(100);
    expect(statuses.get(503) ?? 0).toBeGreaterThan(0);
    expect(acknowledged.length).toBeGreaterThan(0);

    await within(10_000, 'the API ready again', ready);
    const readyAfterMs = Date.now() - drillEnded;
    // Figures for docs/operations.md: how hard the drill was and what it got.
    console.info(`failover drill: ${figures}, ready again ${readyAfterMs} ms after`);
    expect(readyAfterMs).toBeLessThan(5_000);

    const present = await database.db
      .selectFrom('articles')
      .select('id')
      .where('id', 'in', acknowledged)
      .execute();
    expect(present.length).toBe(acknowledged.length);

    // Still working, not merely alive: both serve again and the worker is back on the database.
    expect(
      await request('after', '/api/v1/client/posts?limit=1', { headers: { 'x-api-key': apiKey } }),
    ).toBeDefined();
    await within(5_000, `the worker back on the database (${worker.output()})`, workerConnected);
    for (const child of [api.child, worker.child]) {
      child.kill('SIGTERM');
      const [code] = await once(child, 'exit');
      expect(code).toBe(0);
    }
  });
});
