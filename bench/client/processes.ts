import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildBundles, bundleEntries } from '../../scripts/build';

const root = resolve(import.meta.dirname, '../..');

export interface Server {
  child: ChildProcess;
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts a bundled server (see bundleServers) as its own process the way production does (plain node running
 * the esbuild bundle, configured only by environment variables) and waits until /health answers.
 * Its stdout (the log lines, one JSON object each) goes to `logFile` (default /dev/null): written, never
 * printed; stderr is passed through.
 */
export async function startServer(
  entry: string,
  env: Record<string, string>,
  nodeArgs: string[] = [],
  logFile = '/dev/null',
): Promise<Server> {
  const stdout = openSync(logFile, 'a');
  const child = spawn(process.execPath, [...nodeArgs, resolve(root, entry)], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', stdout, 'inherit'],
  });
  closeSync(stdout);
  const url = `http://127.0.0.1:${env.PORT}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${entry} exited with status ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${entry} did not start within 30 s`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    child,
    url,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.once('exit', () => {
          clearTimeout(force);
          done();
        });
        child.kill('SIGTERM');
      }),
  };
}

const benchDist = '.bench/dist';

/**
 * Builds the API and the baseline with the production build (scripts/build.ts) into .bench/dist, so both run
 * exactly as production runs the API: `node <bundle>.mjs`. Returns the entry of each.
 */
export async function bundleServers(): Promise<{ api: string; baseline: string; sameBytes: string }> {
  await buildBundles(resolve(root, benchDist), {
    api: bundleEntries.api as string,
    'bcrypt.worker': bundleEntries['bcrypt.worker'] as string,
    baseline: 'bench/client/hello-server.ts',
    'same-bytes': 'bench/client/same-bytes-server.ts',
  });
  return {
    api: `${benchDist}/api.mjs`,
    baseline: `${benchDist}/baseline.mjs`,
    sameBytes: `${benchDist}/same-bytes.mjs`,
  };
}

/** Resident set size of a process, bytes (Linux /proc). */
export function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  return Number(kb ?? 0) * 1024;
}

/** CPU time (user + system) a process has used so far, microseconds (Linux /proc; clock ticks of 10 ms). */
export function cpuMicrosOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}
