import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { createTestDatabase, entryPointCwd, freePort, testRedis } from '@newsroom/test-support';
import bcrypt from 'bcryptjs';
import { sql } from 'kysely';
import { afterAll, describe, expect, it, vi } from 'vitest';

// The first administrator, through the real entry points: `pnpm admin:create` and API start-up.

// Each case starts a tsx process (1-3 s on a busy 2-core machine).
vi.setConfig({ testTimeout: 60_000 });

const root = resolve(import.meta.dirname, '../../..');
const tsx = resolve(root, 'node_modules/.bin/tsx');
const { db, url, destroy } = await createTestDatabase();
afterAll(destroy);

function run(script: string, args: string[], env: Record<string, string>, stdin = '') {
  const child = spawn(tsx, [resolve(root, script), ...args], {
    cwd: entryPointCwd,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', DATABASE_URL: url, ...env },
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  child.stdin.end(stdin);
  return { child, output: () => output };
}

async function createAdmin(args: string[], stdin = '') {
  const { child, output } = run('apps/api/src/cli/create-admin.ts', args, {}, stdin);
  const [code] = await once(child, 'exit');
  return { code: code as number, output: output() };
}

const admins = (email: string) =>
  db
    .selectFrom('users')
    .select(['id', 'password_hash', 'role'])
    .where(sql`lower(email)`, '=', email.toLowerCase())
    .execute();

describe('pnpm admin:create', () => {
  it('creates an administrator from flags, then leaves it alone', async () => {
    const created = await createAdmin(['--email', 'root@example.com', '--password', 'root password 1']);
    expect(created).toMatchObject({ code: 0, output: expect.stringContaining('created') });
    const again = await createAdmin(['--email', 'ROOT@example.com', '--password', 'other password 2']);
    expect(again).toMatchObject({ code: 0, output: expect.stringContaining('already exists') });
    const rows = await admins('root@example.com');
    expect(rows).toHaveLength(1);
    expect(rows[0]?.role).toBe('admin');
    expect(await bcrypt.compare('root password 1', rows[0]?.password_hash ?? '')).toBe(true);
  });

  it('replaces the password with --reset-password', async () => {
    const reset = await createAdmin([
      '--email',
      'root@example.com',
      '--password',
      'new root password',
      '--reset-password',
    ]);
    expect(reset).toMatchObject({ code: 0, output: expect.stringContaining('replaced') });
    const [row] = await admins('root@example.com');
    expect(await bcrypt.compare('new root password', row?.password_hash ?? '')).toBe(true);
  });

  it('reads missing values from piped input, one per line', async () => {
    const created = await createAdmin([], 'piped@example.com\npiped password!\n');
    expect(created.code).toBe(0);
    expect(await admins('piped@example.com')).toHaveLength(1);
  });

  it('refuses a short password with exit status 1', async () => {
    const short = await createAdmin(['--email', 'short@example.com', '--password', 'short']);
    expect(short).toMatchObject({ code: 1, output: expect.stringContaining('at least 12') });
    expect(await admins('short@example.com')).toHaveLength(0);
  });
});

describe('API start-up with ADMIN_EMAIL / ADMIN_PASSWORD', () => {
  /** Starts the API on a free port until it listens, then stops it; answers its log (of every attempt). */
  async function startApi(password: string): Promise<string> {
    // A port free when chosen can be taken before the API listens (an outgoing connection's ephemeral port):
    // another is chosen then, at most three times. The administrator is made before the listen, so the log of
    // a failed attempt is kept with the next one's.
    let log = '';
    for (let attempt = 1; ; attempt += 1) {
      const output = await startApiOn(await freePort(), password);
      log += output;
      if (!output.includes('EADDRINUSE') || attempt === 3) return log;
    }
  }

  async function startApiOn(port: number, password: string): Promise<string> {
    const redis = testRedis();
    const server = run('apps/api/src/server.ts', [], {
      PORT: String(port),
      API_KEY: 'test-network-api-key-0123456789',
      JWT_SECRET: 'test-jwt-secret-0123456789-0123456789-0123456789',
      REDIS_URL: redis.url,
      QUEUE_PREFIX: redis.prefix,
      LOG_LEVEL: 'info',
      ADMIN_EMAIL: 'boot@example.com',
      ADMIN_PASSWORD: password,
    });
    const deadline = Date.now() + 15_000;
    while (!server.output().includes('Server listening')) {
      if (server.child.exitCode !== null && server.output().includes('EADDRINUSE')) return server.output();
      if (Date.now() > deadline || server.child.exitCode !== null) throw new Error(server.output());
      await new Promise((r) => setTimeout(r, 100));
    }
    server.child.kill('SIGTERM');
    await once(server.child, 'exit');
    return server.output();
  }

  it('creates the administrator on the first start and keeps its password on the next', async () => {
    expect(await startApi('boot password one')).toContain('"outcome":"created"');
    expect(await startApi('boot password two')).toContain('"outcome":"exists"');
    const rows = await admins('boot@example.com');
    expect(rows).toHaveLength(1);
    expect(await bcrypt.compare('boot password one', rows[0]?.password_hash ?? '')).toBe(true);
  });
});
