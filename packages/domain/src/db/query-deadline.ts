import Cursor from 'pg-cursor';

/** The message pg gives a query that got no answer within its query_timeout; our cursor reads use it too. */
export const queryReadTimeoutMessage = 'Query read timeout';

/**
 * pg-cursor whose round trips (each read of a batch, and close) fail after `ms` without an answer,
 * like pg's query_timeout does for plain queries (which would cut a long stream: it times the whole
 * cursor, not each round trip). `onTimeout` is set by the pool so the connection is discarded on release.
 */
export class DeadlineCursor<Row = unknown> extends Cursor<Row> {
  /** Set per pool by {@link deadlineCursorClass}; 0 means no deadline. */
  protected deadlineMs = 0;
  onTimeout: ((error: Error) => void) | undefined;
  private timedOut = false;

  override read(maxRows: number): Promise<Row[]>;
  override read(maxRows: number, callback: Cursor.ResultCallback<Row>): undefined;
  override read(maxRows: number, callback?: Cursor.ResultCallback<Row>): Promise<Row[]> | undefined {
    if (callback) return super.read(maxRows, callback);
    return this.bounded(super.read(maxRows));
  }

  override close(): Promise<void>;
  override close(callback: (err: Error) => void): undefined;
  override close(callback?: (err: Error) => void): Promise<void> | undefined {
    if (callback) return super.close(callback);
    // The connection is being discarded: waiting for its answer to Close would only wait again.
    if (this.timedOut) return Promise.resolve();
    return this.bounded(super.close());
  }

  private bounded<T>(work: Promise<T>): Promise<T> {
    if (this.deadlineMs <= 0) return work;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.timedOut = true;
        const error = new Error(queryReadTimeoutMessage);
        this.onTimeout?.(error);
        reject(error);
      }, this.deadlineMs);
      work.then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  }
}

/** The cursor class Kysely streams with, each round trip bounded by `ms` (0: unbounded). */
export function deadlineCursorClass(ms: number): typeof DeadlineCursor {
  return class<Row = unknown> extends DeadlineCursor<Row> {
    protected override deadlineMs = ms;
  };
}
