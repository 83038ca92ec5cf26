import { freePort } from '@newsroom/test-support';
import type { LoadResult } from './load';
import { type Server, startServer } from './processes';

// What the server benchmarks (bench:change-feed, bench:preview, bench:replica) share: loopback only, their
// processes and resources given back however the run ends (done, failed, past its deadline), one table shape.

/** Refuses any URL whose host is not this machine: benchmarks never send traffic elsewhere. */
export function assertLoopback(...urls: string[]): void {
  for (const url of urls) {
    if (!['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname)) {
      throw new Error(`The benchmark runs on loopback only; refusing ${new URL(url).hostname}`);
    }
  }
}

export interface BenchRun {
  /** Starts a bundled server on a free loopback port (unless `env.PORT` names one); stopped at the end. */
  start(entry: string, env: Record<string, string>): Promise<Server>;
  /** Something to give back at the end (a database to drop, a cluster to stop), after the servers stop. */
  onCleanUp(release: () => Promise<unknown>): void;
}

/**
 * Runs `main` with a BenchRun: at its end, or when `deadlineMs` passes (exit status 2), every server it started
 * is stopped and every resource given to onCleanUp released; an error sets exit status 1.
 */
export async function runBench(deadlineMs: number, main: (run: BenchRun) => Promise<void>): Promise<void> {
  const running: Server[] = [];
  const releases: (() => Promise<unknown>)[] = [];
  const cleanUp = async () => {
    await Promise.allSettled(running.map((server) => server.stop()));
    for (const release of releases) {
      await release().catch((error: unknown) => console.error('clean-up failed:', error));
    }
  };
  const deadline = setTimeout(() => {
    console.error('benchmark deadline reached; stopping');
    void cleanUp().then(() => process.exit(2));
  }, deadlineMs);
  deadline.unref();
  const run: BenchRun = {
    async start(entry, env) {
      const server = await startServer(entry, {
        HOST: '127.0.0.1',
        ...env,
        PORT: env.PORT ?? String(await freePort()),
      });
      running.push(server);
      return server;
    },
    onCleanUp: (release) => releases.push(release),
  };
  try {
    await main(run);
  } catch (error) {
    console.error(error);
    process.exitCode = 1;
  } finally {
    clearTimeout(deadline);
    await cleanUp();
  }
}

/** One row of a "vs baseline" table: requests per second against the baseline's, failures counted. */
export function vsBaselineRow(name: string, result: LoadResult, baseline: number): string {
  const failed = result.non2xx + result.errors;
  return `| ${name} | ${result.requestsPerSecond.toFixed(0)} | ${result.p50} ms | ${result.p99} ms | ${(
    result.requestsPerSecond / baseline
  ).toFixed(2)}x |${failed ? ` (${failed} failed)` : ''}`;
}
