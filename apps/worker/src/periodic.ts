/** A task run every `intervalMs` (measured from the end of the previous run: never two at once). */
export interface Periodic {
  /** Runs the task now (joining a run in progress); resolves when it is done. */
  runNow(): Promise<void>;
  /**
   * Runs the task as soon as it can: now, or right after the run in progress (which may have looked before what
   * woke it). Wake-ups during one run share the one run after it.
   */
  wake(): void;
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

export function startPeriodic(task: () => Promise<void>, intervalMs: number): Periodic {
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let again = false;
  const run = (): Promise<void> => {
    running ??= task()
      .catch(() => {})
      .finally(() => {
        running = undefined;
        if (!stopped) {
          clearTimeout(timer);
          timer = setTimeout(run, again ? 0 : intervalMs);
          again = false;
        }
      });
    return running;
  };
  timer = setTimeout(run, 0);
  return {
    runNow: run,
    wake() {
      if (stopped) return;
      if (running) {
        again = true;
        return;
      }
      clearTimeout(timer);
      void run();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
