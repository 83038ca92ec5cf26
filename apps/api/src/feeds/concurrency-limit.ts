/** Why a task was not run: every slot taken (`busy`), or its key already holds its share (`share`). */
export type Refusal = 'busy' | 'share';

/**
 * A count of tasks running at once, refusing new ones instead of queueing them: at most `max` in all, and
 * at most `perKey` for one key (e.g. one user), so one key can never take every slot from the others.
 */
export interface ConcurrencyLimit {
  readonly running: number;
  /** Runs `task` for `key` if both limits allow it, else returns `refused(reason)` without running it. */
  run<T>(key: string, task: () => Promise<T>, refused: (reason: Refusal) => never): Promise<T>;
}

export function createConcurrencyLimit(max: number, perKey: number = max): ConcurrencyLimit {
  let running = 0;
  const byKey = new Map<string, number>();
  return {
    get running() {
      return running;
    },
    async run(key, task, refused) {
      const held = byKey.get(key) ?? 0;
      if (running >= max) refused('busy');
      if (held >= perKey) refused('share');
      running += 1;
      byKey.set(key, held + 1);
      try {
        return await task();
      } finally {
        running -= 1;
        const left = (byKey.get(key) ?? 1) - 1;
        if (left === 0) byKey.delete(key);
        else byKey.set(key, left);
      }
    },
  };
}
