import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, entryPointCwd, testRedis } from '@newsroom/test-support';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { buildBundles } from '../../../scripts/build';

// The production build (`pnpm build`): the API bundle runs under plain node, and a login works, which
// needs piscina to find bcrypt.worker.mjs next to the bundle. Its request lines reach stdout through the
// batched log destination, all of them by the time a graceful stop ends the process.

vi.setConfig({ testTimeout: 60_000 });

const outdir = mkdtempSync(join(tmpdir(), 'newsroom-build-'));
const { url, destroy } = await createTestDatabase();
const redis = testRedis();
let api: ChildProcess | undefined;
afterAll(async () => {
  if (api && api.exitCode === null) {
    api.kill('SIGTERM');
    await once(api, 'exit');
  }
  await destroy();
  rmSync(outdir, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

async function waitForHealth(base: string, child: ChildProcess, output: () => string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the API bundle exited: ${output()}`);
    if (Date.now() > deadline) throw new Error(`the API bundle did not start: ${output()}`);
    const ok = await fetch(`${base}/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('the API bundle', () => {
  it('builds, starts under plain node, logs an administrator in, and writes every request line', async () => {
    await buildBundles(outdir);
    for (const file of ['api.mjs', 'worker.mjs', 'migrate.mjs', 'bcrypt.worker.mjs']) {
      expect(existsSync(join(outdir, file))).toBe(true);
    }

    const port = await freePort();
    let output = '';
    api = spawn(process.execPath, [join(outdir, 'api.mjs')], {
      cwd: entryPointCwd,
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'test',
        PORT: String(port),
        DATABASE_URL: url,
        REDIS_URL: redis.url,
        QUEUE_PREFIX: redis.prefix,
        API_KEY: 'bundle-test-api-key-0123',
        JWT_SECRET: 'bundle-test-jwt-secret-0123456789abcdef',
        ADMIN_EMAIL: 'bundle@example.com',
        ADMIN_PASSWORD: 'bundle admin password',
      },
    });
    api.stdout?.on('data', (chunk) => (output += chunk));
    api.stderr?.on('data', (chunk) => (output += chunk));
    const base = `http://127.0.0.1:${port}`;
    await waitForHealth(base, api, () => output);

    const login = (password: string) =>
      fetch(`${base}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'bundle@example.com', password }),
      });
    const ok = await login('bundle admin password');
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ token: expect.any(String) });
    expect((await login('a wrong password')).status).toBe(401);
    expect((await fetch(`${base}/docs/json`)).status).toBe(200);

    // A graceful stop ends with process.exit: the lines still batched are written before it.
    api.kill('SIGTERM');
    await once(api, 'exit');
    const lines = output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg?: string; url?: string; statusCode?: number });
    const logins = lines.filter(
      (line) => line.msg === 'request completed' && line.url === '/api/v1/auth/login',
    );
    expect(logins.map((line) => line.statusCode)).toEqual([200, 401]);
    expect(lines.some((line) => line.msg === 'request completed' && line.url === '/docs/json')).toBe(true);
    expect(lines.at(-1)).toMatchObject({ msg: 'shutting down' });
  });
});
