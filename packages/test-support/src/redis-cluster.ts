import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { freePort } from './private-redis';
import { isListening } from './services';

const run = promisify(execFile);

/** A Redis Cluster of the test's own: masters on loopback ports, no replicas, no persistence. */
export interface PrivateRedisCluster {
  /** `redis://127.0.0.1:<port>` of every master (REDIS_CLUSTER_NODES joins them with commas). */
  nodes: string[];
  stop(): Promise<void>;
}

async function clusterState(port: number): Promise<string> {
  const { stdout } = await run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), 'cluster', 'info'], {
    timeout: 2_000,
  });
  return /cluster_state:(\w+)/.exec(stdout)?.[1] ?? 'unknown';
}

/**
 * Starts `masters` redis-servers with `--cluster-enabled yes` in a temporary directory, joins them with
 * `redis-cli --cluster create` (the 16,384 slots split between them) and waits until every node reports
 * cluster_state:ok. Every wait bounded (10 s to listen, 20 s to agree); stop() ends them and removes the directory.
 */
export async function startRedisCluster(masters = 3): Promise<PrivateRedisCluster> {
  const dir = await mkdtemp(join(tmpdir(), 'newsroom-redis-cluster-'));
  const children: ChildProcess[] = [];
  const ports: number[] = [];
  const stop = async () => {
    await Promise.all(
      children.map(async (child) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }),
    );
    await rm(dir, { recursive: true, force: true });
  };
  try {
    for (let n = 0; n < masters; n++) {
      const port = await freePort();
      ports.push(port);
      // Each node writes its nodes.conf in the directory it starts in.
      const nodeDir = join(dir, String(port));
      await mkdir(nodeDir);
      children.push(
        spawn(
          'redis-server',
          [
            ...['--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes'],
            ...['--cluster-config-file', 'nodes.conf', '--cluster-node-timeout', '2000'],
            ...['--save', '', '--appendonly', 'no', '--daemonize', 'no'],
          ],
          { cwd: nodeDir, stdio: 'ignore' },
        ),
      );
    }
    for (const [n, port] of ports.entries()) {
      const child = children[n] as ChildProcess;
      for (let waited = 0; !(await isListening('127.0.0.1', port, 200)); waited += 50) {
        if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
        if (waited > 10_000) throw new Error(`redis-server did not listen on ${port} within 10 s`);
        await sleep(50);
      }
    }
    await run(
      'redis-cli',
      [
        '--cluster',
        'create',
        ...ports.map((port) => `127.0.0.1:${port}`),
        '--cluster-replicas',
        '0',
        '--cluster-yes',
      ],
      { timeout: 20_000 },
    );
    for (const deadline = Date.now() + 20_000; ; await sleep(100)) {
      const states = await Promise.all(ports.map(clusterState));
      if (states.every((state) => state === 'ok')) break;
      if (Date.now() > deadline)
        throw new Error(`the cluster did not agree within 20 s: ${states.join(', ')}`);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { nodes: ports.map((port) => `redis://127.0.0.1:${port}`), stop };
}
