/**
 * `work`, or `timedOut()`'s error once `ms` have passed, whichever comes first. The timer is cleared
 * either way. Used where the API must answer promptly although a dependency (Postgres, Redis) hangs.
 */
export async function withDeadline<T>(work: Promise<T>, ms: number, timedOut: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timedOut()), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
