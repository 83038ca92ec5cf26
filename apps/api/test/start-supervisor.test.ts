import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { entryPointCwd, tsxLoader } from '@newsroom/test-support';
import { afterEach, describe, expect, it, vi } from 'vitest';

// How `pnpm start` (scripts/start.ts, through scripts/supervise.ts) stops the API and the worker: Ctrl-C
// reaches its whole process group, the children included, and both must still stop cleanly (exit 0).

vi.setConfig({ testTimeout: 30_000 });

const fixture = resolve(import.meta.dirname, 'support/supervisor-fixture.ts');
let supervisor: ChildProcess | undefined;
afterEach(() => {
  // A failed case must not leave its group behind.
  if (supervisor?.pid && supervisor.exitCode === null) process.kill(-supervisor.pid, 'SIGKILL');
});

function startSupervisor() {
  // Its own process group, as a terminal gives `pnpm start`.
  supervisor = spawn(process.execPath, ['--import', tsxLoader, fixture], {
    cwd: entryPointCwd,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const child = supervisor;
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const pidsOf = (word: string, label = '\\w+') =>
    [...output.matchAll(new RegExp(`^${word} (\\d+)(?: ${label})?$`, 'gm'))].map((m) => Number(m[1]));
  async function until(condition: () => boolean, what: string) {
    const deadline = Date.now() + 15_000;
    while (!condition()) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no ${what}: ${output}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  return { child, exited, pidsOf, until, output: () => output };
}

describe("pnpm start's two processes", () => {
  it('stop cleanly when Ctrl-C reaches them before the start script', async () => {
    const run = startSupervisor();
    await run.until(() => run.pidsOf('up').length === 2, 'children up');
    for (const pid of run.pidsOf('up')) process.kill(pid, 'SIGINT');
    await run.until(() => run.pidsOf('stopping').length === 2, 'children stopping');
    process.kill(run.child.pid as number, 'SIGINT');
    const [code] = await run.exited;
    expect(run.output()).toContain('first exited with code 0');
    expect(run.output()).toContain('second exited with code 0');
    expect(code).toBe(0);
  });

  it('stop cleanly on a Ctrl-C to the whole process group', async () => {
    const run = startSupervisor();
    await run.until(() => run.pidsOf('up').length === 2, 'children up');
    process.kill(-(run.child.pid as number), 'SIGINT');
    const [code] = await run.exited;
    expect(run.output()).toContain('first exited with code 0');
    expect(run.output()).toContain('second exited with code 0');
    expect(code).toBe(0);
  });

  it('exit 0 when a second Ctrl-C reaches the start script after the children exited', async () => {
    const run = startSupervisor();
    await run.until(() => run.pidsOf('up').length === 2, 'children up');
    process.kill(-(run.child.pid as number), 'SIGINT');
    await run.until(() => run.pidsOf('closing').length === 1, 'the start script closing');
    process.kill(run.child.pid as number, 'SIGINT');
    const [code, signal] = await run.exited;
    expect(signal).toBeNull();
    expect(code).toBe(0);
  });

  it('stop on a SIGTERM sent to the start script alone', async () => {
    const run = startSupervisor();
    await run.until(() => run.pidsOf('up').length === 2, 'children up');
    process.kill(run.child.pid as number, 'SIGTERM');
    const [code] = await run.exited;
    expect(run.pidsOf('stopping')).toHaveLength(2);
    expect(code).toBe(0);
  });

  it('stop both, and report failure, when one of them dies', async () => {
    const run = startSupervisor();
    await run.until(() => run.pidsOf('up').length === 2, 'children up');
    process.kill(run.pidsOf('up', 'first')[0] as number, 'SIGKILL');
    const [code] = await run.exited;
    expect(run.output()).toContain('first exited on SIGKILL');
    expect(run.output()).toContain('second exited with code 0');
    expect(code).toBe(1);
  });
});
