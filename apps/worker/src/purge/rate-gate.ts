/** Spaces calls to at most `requestsPerSecond` (null: no spacing); `sleep` and `now` are replaceable in tests. */
export interface RateGate {
  /** Resolves when the next request may go. */
  pass(): Promise<void>;
}

export function createRateGate(
  requestsPerSecond: number | null,
  clock: { now: () => number; sleep: (ms: number) => Promise<void> } = {
    now: Date.now,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  },
): RateGate {
  if (requestsPerSecond === null) return { pass: async () => {} };
  const spacingMs = 1000 / requestsPerSecond;
  let nextAt = 0;
  return {
    async pass() {
      const now = clock.now();
      const at = Math.max(now, nextAt);
      nextAt = at + spacingMs;
      if (at > now) await clock.sleep(at - now);
    },
  };
}
