import type { ChildProcess } from 'node:child_process';

/** A child process of `pnpm start`, named for its exit line. */
export interface Supervised {
  label: string;
  process: ChildProcess;
}

/**
 * Runs until every child has exited and resolves with this process's exit code: 0 when all exited 0, else 1.
 * SIGINT or SIGTERM stops them all, and one child's exit stops the others (a half-running service is worse
 * than a stopped one). Each exit is reported as "<label> exited with code N" or "<label> exited on SIGNAL".
 *
 * What is forwarded is SIGTERM, even on Ctrl-C: a terminal's Ctrl-C reaches every process of its group, the
 * children included, and they start their graceful stop on that SIGINT. Their SIGINT handler runs once, so a
 * forwarded second SIGINT would kill them on the spot mid-stop; a SIGTERM finds them stopping and is ignored.
 *
 * The handlers stay installed after the children have exited: a second Ctrl-C (pressed again, or relayed by a
 * wrapper) can come after the children are gone while the caller still closes what it holds (the embedded upload
 * store); without a handler that SIGINT would end it with 130. (`pnpm start` runs this under `node --import tsx`,
 * not the tsx CLI, whose parent SIGKILLs a child that does not acknowledge a signal within 30 ms.)
 */
export function supervise(children: Supervised[], report: (line: string) => void): Promise<number> {
  const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;
  let stopping = false;
  const stopAll = () => {
    if (stopping) return;
    stopping = true;
    for (const { process: child } of children) if (running(child)) child.kill('SIGTERM');
  };
  process.on('SIGINT', stopAll);
  process.on('SIGTERM', stopAll);
  return new Promise((resolve) => {
    for (const { label, process: child } of children) {
      child.on('exit', (code, signal) => {
        report(`${label} exited ${signal ? `on ${signal}` : `with code ${code}`}\n`);
        stopAll();
        if (children.some(({ process: c }) => running(c))) return;
        resolve(children.every(({ process: c }) => c.exitCode === 0) ? 0 : 1);
      });
    }
  });
}
