/** Runs tasks one at a time, in the order they arrive; tasks outside the gate are not held up. */
export interface SerialGate {
  run<T>(task: () => Promise<T>): Promise<T>;
}

export function createSerialGate(): SerialGate {
  let last: Promise<unknown> = Promise.resolve();
  return {
    run(task) {
      const result = last.then(task);
      // The next task waits for this one to settle, whether it succeeded or not.
      last = result.catch(() => undefined);
      return result;
    },
  };
}
