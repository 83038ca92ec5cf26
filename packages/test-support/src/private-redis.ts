import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { isListening } from './services';

/** A redis-server of the test's own, on a loopback port, that the test may flush, stop and restart. */
export interface PrivateRedis {
  url: string;
  port: number;
  /** Stops the server (SIGTERM, no save) and starts an empty one on the same port. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1 (asked of the kernel, then released). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

/**
 * Starts `redis-server` on an ephemeral loopback port with no persistence, so a test can FLUSHALL,
 * kill or replace it without touching the shared server. Wait bounded: 10 s to start.
 */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;

  async function start(): Promise<void> {
    child = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--daemonize',
        'no',
      ],
      { stdio: 'ignore' },
    );
    for (let waited = 0; waited < 10_000; waited += 50) {
      if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
      if (await isListening('127.0.0.1', port, 200)) return;
      await sleep(50);
    }
    throw new Error(`redis-server did not listen on ${port} within 10 s`);
  }

  async function stop(): Promise<void> {
    const running = child;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = once(running, 'exit');
    running.kill('SIGTERM');
    const timer = setTimeout(() => running.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }

  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async restart() {
      await stop();
      await start();
    },
    stop,
  };
}
