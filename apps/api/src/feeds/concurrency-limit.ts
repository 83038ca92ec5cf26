/** A count of tasks running at once, refusing new ones past `max` instead of queueing them. */
export interface ConcurrencyLimit {
  readonly running: number;
  /** Runs `task` if fewer than `max` are running, else returns `refused()` without running it. */
  run<T>(task: () => Promise<T>, refused: () => never): Promise<T>;
}

export function createConcurrencyLimit(max: number): ConcurrencyLimit {
  let running = 0;
  return {
    get running() {
      return running;
    },
    async run(task, refused) {
      if (running >= max) refused();
      running += 1;
      try {
        return await task();
      } finally {
        running -= 1;
      }
    },
  };
}
