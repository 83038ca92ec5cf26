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

const firstSoonMs = 10;

/**
 * A run may resolve to 'soon' when what it is there for is expected shortly without anything to wake it (an outbox
 * change committed but not final yet): the next run comes after 10 ms, then 20, 40... up to `intervalMs` while runs
 * keep answering 'soon', starting again from 10 ms after a wake-up. Any other answer waits `intervalMs`.
 */
export function startPeriodic(task: () => Promise<unknown>, intervalMs: number): Periodic {
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let again = false;
  let soonMs = firstSoonMs;
  /** The pause before the next run, from what this one answered. */
  const pauseAfter = (outcome: unknown) => {
    if (outcome !== 'soon') {
      soonMs = firstSoonMs;
      return intervalMs;
    }
    const pause = Math.min(soonMs, intervalMs);
    soonMs = Math.min(soonMs * 2, intervalMs);
    return pause;
  };
  const run = (): Promise<void> => {
    running ??= task()
      .catch(() => undefined)
      .then((outcome) => {
        running = undefined;
        if (!stopped) {
          clearTimeout(timer);
          const pause = pauseAfter(outcome);
          timer = setTimeout(run, again ? 0 : pause);
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
      // Something new happened: if it too is not ready at once, look for it soon rather than after a long pause.
      soonMs = firstSoonMs;
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
