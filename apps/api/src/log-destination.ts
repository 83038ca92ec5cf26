import pino from 'pino';
import type { DestinationStream } from './logger';

/** A line waits at most this long before it is handed to stdout... */
const maxDelayMs = 50;
/** ...or until this much text is waiting. */
const maxPendingChars = 64 * 1024;

/**
 * Where the API writes its log lines in production: stdout, in batches. pino's own stdout stream (sonic-boom,
 * text mode) costs several µs per line at thousands of requests a second: each line re-measures the text it is
 * appended to, starts its own write to a libuv thread when none is under way, and the text is encoded twice.
 * Here lines are kept as strings and handed over as one buffer every 50 ms (or every 64 KiB), so a request's
 * line costs an array push plus its share of one write. Lines still pending when the process exits are
 * written synchronously then (graceful stop, `process.exit`, an uncaught exception), so none is lost; a
 * process killed outright (SIGKILL, out of memory) loses its last 50 ms of lines, where pino's default loses
 * the lines its write had not finished. docs/operations.md#request-logs.
 */
export class BatchedLogDestination implements DestinationStream {
  private lines: string[] = [];
  private scheduled = false;
  private pendingChars = 0;
  private readonly flushSoon = () => this.flush();

  constructor(private readonly target: ByteTarget = stdoutStream()) {
    process.once('exit', () => {
      try {
        this.flush();
        this.target.flushSync?.();
      } catch {
        // stdout is gone (EPIPE): nothing left to write to.
      }
    });
  }

  write(line: string): void {
    this.lines.push(line);
    this.pendingChars += line.length;
    if (this.pendingChars >= maxPendingChars) {
      this.flush();
      return;
    }
    if (this.scheduled) return;
    this.scheduled = true;
    setTimeout(this.flushSoon, maxDelayMs).unref();
  }

  /** Hands the pending lines to the target as one chunk (also called on exit). */
  flush(): void {
    this.scheduled = false;
    this.pendingChars = 0;
    if (this.lines.length === 0) return;
    const chunk = this.lines.length === 1 ? (this.lines[0] as string) : this.lines.join('');
    this.lines = [];
    // Encoded once here: sonic-boom in buffer mode writes the bytes as they are (in text mode it measures and
    // re-encodes the text it holds on every write and after every completed write).
    this.target.write(Buffer.from(chunk, 'utf8'));
  }
}

/** Where the batched bytes go. */
export interface ByteTarget {
  write(bytes: Buffer): unknown;
  flushSync?(): void;
}

/**
 * pino's asynchronous stdout stream (sonic-boom) in buffer mode: it takes bytes (its typings know only its
 * text mode), and flushes itself synchronously at exit.
 */
function stdoutStream(): ByteTarget {
  return pino.destination({ dest: 1, sync: false, contentMode: 'buffer' }) as unknown as ByteTarget;
}
