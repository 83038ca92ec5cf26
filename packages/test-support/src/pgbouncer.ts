import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './private-redis';
import { isListening } from './services';

/** Debian's PgBouncer in transaction mode on a loopback port, in front of one Postgres server. */
export interface PrivatePgBouncer {
  port: number;
  /** `serverUrl` with its host and port replaced by PgBouncer's (same user, password and database). */
  through(serverUrl: string): string;
  /** SIGKILLs the process (every client connection cut mid-whatever) and starts a new one on the same port. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts `pgbouncer` with a generated ini: every database name of `serverUrl`'s server (the fallback entry),
 * transaction pooling, trust auth. Started as root it switches to the postgres user (-u), which must read the
 * ini and write its log. Bounded: 10 s to listen.
 */
export async function startPrivatePgBouncer(
  serverUrl: string,
  options: { stdio?: 'inherit' | 'ignore' } = {},
): Promise<PrivatePgBouncer> {
  const server = new URL(serverUrl);
  const dir = await mkdtemp(join(tmpdir(), 'newsroom-pgbouncer-'));
  await chmod(dir, 0o777);
  const port = await freePort();
  const user = decodeURIComponent(server.username || 'postgres');
  const password = decodeURIComponent(server.password);
  await writeFile(join(dir, 'userlist.txt'), `"${user}" ""\n`, { mode: 0o644 });
  await writeFile(
    join(dir, 'pgbouncer.ini'),
    `[databases]
; every database name, on the test server (the fallback entry)
* = host=${server.hostname} port=${server.port || 5432} user=${user}${password ? ` password=${password}` : ''}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${port}
unix_socket_dir =
auth_type = trust
auth_file = ${join(dir, 'userlist.txt')}
pool_mode = transaction
max_client_conn = 2000
default_pool_size = 8
; pg sends these at connect; a transaction pooler cannot keep per-client session settings (set them per role
; in production: ALTER ROLE ... SET statement_timeout, see docs/deployment.md)
ignore_startup_parameters = extra_float_digits,statement_timeout,idle_in_transaction_session_timeout,options
logfile = ${join(dir, 'pgbouncer.log')}
`,
    { mode: 0o644 },
  );
  const asRoot = process.getuid?.() === 0;
  let child: ChildProcess | undefined;

  async function start() {
    const running = spawn('pgbouncer', [...(asRoot ? ['-u', 'postgres'] : []), join(dir, 'pgbouncer.ini')], {
      stdio: options.stdio ?? 'ignore',
      env: { ...process.env, PATH: `${process.env.PATH}:/usr/sbin` },
    });
    child = running;
    for (let waited = 0; !(await isListening('127.0.0.1', port, 200)); waited += 100) {
      if (running.exitCode !== null) throw new Error(`pgbouncer exited with ${running.exitCode}`);
      if (waited > 10_000) throw new Error(`pgbouncer did not listen on ${port} within 10 s`);
      await sleep(100);
    }
  }

  async function end(signal: NodeJS.Signals) {
    const running = child;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = once(running, 'exit');
    running.kill(signal);
    const force = setTimeout(() => running.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(force);
  }

  try {
    await start();
  } catch (error) {
    await end('SIGKILL');
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    port,
    through(url) {
      const pooled = new URL(url);
      pooled.hostname = '127.0.0.1';
      pooled.port = String(port);
      return pooled.toString();
    },
    async restart() {
      await end('SIGKILL');
      await start();
    },
    async stop() {
      await end('SIGTERM');
      await rm(dir, { recursive: true, force: true });
    },
  };
}
