/**
 * Gathers concurrent calls into batches: a call made while a batch is in flight waits for it and goes in the next
 * one (with every call made meanwhile, at most `maxSize`). An idle batcher starts a batch at once (after the
 * current turn, so calls made together go together): no added latency, and under load one round trip serves many.
 * `run` answers one result per item, in order; when it throws, every call of that batch gets the error.
 */
export function createMicroBatch<I, O>(
  run: (items: I[]) => Promise<O[]>,
  maxSize: number,
): (item: I) => Promise<O> {
  let waiting: { item: I; resolve: (value: O) => void; reject: (error: unknown) => void }[] = [];
  let running = false;

  async function drain() {
    running = true;
    await new Promise((resolve) => setImmediate(resolve));
    while (waiting.length > 0) {
      const batch = waiting.slice(0, maxSize);
      waiting = waiting.slice(maxSize);
      try {
        const results = await run(batch.map(({ item }) => item));
        for (const [index, call] of batch.entries()) call.resolve(results[index] as O);
      } catch (error) {
        for (const call of batch) call.reject(error);
      }
    }
    running = false;
  }

  return (item) =>
    new Promise<O>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      if (!running) void drain();
    });
}
