import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { appendFile, chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { migrateToLatest } from '@newsroom/migrations';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { freePort } from './private-redis';

const run = promisify(execFile);

/**
 * A Postgres primary of the test's own and a streaming replica of it (Debian's server binaries, installed by
 * scripts/ensure-test-tools.sh), each on a free loopback port, with one migrated database. The replica applies
 * each commit `applyDelayMs` after the primary (recovery_min_apply_delay): the lag a read must not see past;
 * it cancels a read that holds back replay for 200 ms (a conflict with recovery).
 */
export interface StreamingCluster {
  /** The migrated database on the primary. */
  primaryUrl: string;
  /** The same database on the replica (read-only). */
  replicaUrl: string;
  /** Stops the replica at once (pg_ctl -m immediate: as a crash, connections cut). */
  stopReplica(): Promise<void>;
  /** Starts it again and waits (bounded) until it accepts connections. */
  startReplica(): Promise<void>;
  /** Stops both servers and removes their files. */
  stop(): Promise<void>;
}

const database = 'newsroom';
// Every command is bounded: a server that will not start or stop fails the test instead of hanging it.
const commandTimeoutMs = 60_000;

/** The newest Debian server binaries (/usr/lib/postgresql/<version>/bin). */
function serverBinaries(): string {
  const root = '/usr/lib/postgresql';
  const versions = readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && /^[0-9]+$/.test(entry.name))
    .map((entry) => Number(entry.name))
    .sort((a, b) => b - a);
  if (versions.length === 0)
    throw new Error(`no Postgres server under ${root}: run scripts/ensure-test-tools.sh`);
  return join(root, String(versions[0]), 'bin');
}

export async function startStreamingCluster({
  applyDelayMs,
}: {
  applyDelayMs: number;
}): Promise<StreamingCluster> {
  const bin = serverBinaries();
  const dir = await mkdtemp(join(tmpdir(), 'newsroom-replica-'));
  // Postgres refuses to run as root: as root, the servers run as the postgres user, which must own the folder.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: group } = await run('id', ['-g', 'postgres']);
    await chown(dir, Number(stdout.trim()), Number(group.trim()));
  }
  const as = (command: string, args: string[]) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', join(bin, command), ...args], { timeout: commandTimeoutMs })
      : run(join(bin, command), args, { timeout: commandTimeoutMs });
  const primaryDir = join(dir, 'primary');
  const replicaDir = join(dir, 'replica');
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const pgCtl = (dataDir: string, ...args: string[]) =>
    as('pg_ctl', ['-D', dataDir, '-l', `${dataDir}.log`, '-w', '-t', '30', ...args]);
  let started: string[] = [];
  const stopServers = async () => {
    for (const dataDir of started) await pgCtl(dataDir, 'stop', '-m', 'immediate').catch(() => {});
    started = [];
  };

  try {
    await as('initdb', [
      '-D',
      primaryDir,
      '-U',
      'postgres',
      '--auth=trust',
      '--no-sync',
      '-E',
      'UTF8',
      '--locale=C',
    ]);
    // Small and quick: no fsync (a test's data), few connections. initdb's pg_hba trusts loopback replication.
    await appendFile(
      join(primaryDir, 'postgresql.conf'),
      `
listen_addresses = '127.0.0.1'
port = ${primaryPort}
unix_socket_directories = '${dir}'
fsync = off
full_page_writes = off
shared_buffers = 16MB
max_connections = 60
wal_level = replica
max_wal_senders = 4
`,
    );
    await pgCtl(primaryDir, 'start');
    started.push(primaryDir);
    const primaryUrl = `postgres://postgres@127.0.0.1:${primaryPort}/${database}`;
    await migrated(primaryUrl);

    await as('pg_basebackup', [
      ...['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', replicaDir],
      ...['-R', '-X', 'stream', '-c', 'fast', '--no-sync'],
    ]);
    await appendFile(
      join(replicaDir, 'postgresql.conf'),
      `
port = ${replicaPort}
hot_standby = on
recovery_min_apply_delay = '${applyDelayMs}ms'
# A read holding rows that replay removes is cancelled after this long (production default: 30 s).
max_standby_streaming_delay = '200ms'
`,
    );
    const startReplica = async () => {
      await pgCtl(replicaDir, 'start');
      if (!started.includes(replicaDir)) started.push(replicaDir);
    };
    await startReplica();
    return {
      primaryUrl,
      replicaUrl: `postgres://postgres@127.0.0.1:${replicaPort}/${database}`,
      startReplica,
      async stopReplica() {
        await pgCtl(replicaDir, 'stop', '-m', 'immediate');
        started = started.filter((dataDir) => dataDir !== replicaDir);
      },
      async stop() {
        await stopServers();
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await stopServers();
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/** Creates the database on the primary and applies every migration to it. */
async function migrated(url: string): Promise<void> {
  const server = new Kysely<any>({
    dialect: new PostgresDialect({
      pool: new pg.Pool({ connectionString: url.replace(/[^/]+$/, 'postgres'), max: 1 }),
    }),
  });
  try {
    await sql`create database ${sql.id(database)}`.execute(server);
  } finally {
    await server.destroy();
  }
  const db = new Kysely<any>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }),
  });
  try {
    await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
}
