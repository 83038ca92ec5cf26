import net from 'node:net';

/** The message of the error a connection fails with when Postgres' bytes cannot be parsed. */
export const malformedStreamMessage = 'Postgres sent a malformed message';

/**
 * The socket pg talks to Postgres through (pg's `stream` option), turning an exception thrown while a
 * chunk is parsed into a failed connection. pg-protocol parses each chunk inside the socket's 'data'
 * event; a garbled message (a length shorter than its header, fields past its end) throws a RangeError
 * there, which nothing catches: the process would crash. Destroying the socket with the error instead
 * fails the queries on that connection (answered 503) and the pool discards it. Plain TCP and Unix
 * sockets only: with TLS, pg parses the TLS socket it wraps around this one.
 */
export class GuardedSocket extends net.Socket {
  override emit(event: string | symbol, ...args: unknown[]): boolean {
    if (event !== 'data') return super.emit(event, ...args);
    try {
      return super.emit(event, ...args);
    } catch (error) {
      this.destroy(new Error(malformedStreamMessage, { cause: error }));
      return true;
    }
  }
}

/** For pg's `stream` option (Client and Pool): a new guarded socket per connection. */
export const guardedSocket = (): GuardedSocket => new GuardedSocket();
