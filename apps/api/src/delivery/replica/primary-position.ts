/**
 * The primary's WAL position, read for many callers at once: `next()` answers with a position read by a query
 * sent after the call began, so it lies past every commit that finished before the call (and so past every
 * change whose notification was heard, and every change feed cursor handed out, before it). Callers arriving
 * while a query is out share the one query queued after it: at most one query in flight and one waiting.
 */
export class PrimaryPosition {
  private running: Promise<bigint> | null = null;
  private queued: Promise<bigint> | null = null;
  /** The highest position read so far (null: none yet). */
  latest: bigint | null = null;

  constructor(private readonly sample: () => Promise<bigint>) {}

  next(): Promise<bigint> {
    if (this.queued) return this.queued;
    if (!this.running) return this.start();
    // The query out now may have been sent before this call: wait for it, then read again.
    const queued = this.running
      .catch(() => {})
      .then(() => {
        this.queued = null;
        return this.start();
      });
    this.queued = queued;
    return queued;
  }

  private start(): Promise<bigint> {
    const run = this.sample().then((position) => {
      if (this.latest === null || position > this.latest) this.latest = position;
      return position;
    });
    this.running = run;
    const clear = () => {
      if (this.running === run) this.running = null;
    };
    run.then(clear, clear);
    return run;
  }
}
