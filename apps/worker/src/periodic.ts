/** A task run every `intervalMs` (measured from the end of the previous run: never two at once). */
export interface Periodic {
  /** Runs the task now (joining a run in progress); resolves when it is done. */
  runNow(): Promise<void>;
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

export function startPeriodic(task: () => Promise<void>, intervalMs: number): Periodic {
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const run = (): Promise<void> => {
    running ??= task()
      .catch(() => {})
      .finally(() => {
        running = undefined;
        if (!stopped) {
          clearTimeout(timer);
          timer = setTimeout(run, intervalMs);
        }
      });
    return running;
  };
  timer = setTimeout(run, 0);
  return {
    runNow: run,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
