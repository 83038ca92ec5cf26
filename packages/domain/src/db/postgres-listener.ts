import pg from 'pg';
import { guardedSocket } from './guarded-socket';

export interface PostgresListenerOptions {
  /** A session of its own: never through a transaction-mode pooler (DATABASE_DIRECT_URL). */
  connectionString: string;
  channel: string;
  /** What the connection is called in pg_stat_activity. */
  applicationName: string;
  /** How often the connection is proven alive; a silent failure is noticed within about this long. */
  heartbeatMs?: number;
  /** First retry delay after the connection is lost; doubles up to maxRetryMs. */
  retryMs?: number;
  maxRetryMs?: number;
  /** A connection attempt with no answer this long fails (and is retried), so a hung server cannot stall it. */
  connectTimeoutMs?: number;
  /** A notification on the channel (its payload; undefined when it had none). */
  onNotification(payload: string | undefined): void;
  /** Listening, first or again: notifications sent while it was not were missed. */
  onListening(): void;
  /** It stopped listening: the connection was lost (`error`; it reconnects by itself) or closed (none). */
  onDown(error?: Error): void;
}

/**
 * One channel LISTENed to on a dedicated connection that stays up: a heartbeat proves it alive, a lost or hung
 * connection is replaced with backoff, and the owner hears when it is listening and when it is not (so it knows
 * when notifications may have been missed).
 */
export class PostgresListener {
  private client: pg.Client | null = null;
  private listening = false;
  private heartbeat: NodeJS.Timeout | null = null;
  private retry: NodeJS.Timeout | null = null;
  private retryMs: number;
  private closed = false;

  constructor(private readonly options: PostgresListenerOptions) {
    this.retryMs = options.retryMs ?? 100;
  }

  /** Connects (one attempt; on failure it keeps retrying in the background and resolves anyway). */
  async start(): Promise<void> {
    await this.connect();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    await this.markDown();
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const { options } = this;
    const client = new pg.Client({
      connectionString: options.connectionString,
      application_name: options.applicationName,
      keepAlive: true,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
      // A garbled answer fails (and so reconnects) this connection instead of crashing the process.
      stream: guardedSocket,
    });
    this.client = client;
    client.on('error', (error) => this.lose(client, error));
    client.on('end', () => this.lose(client, new Error(`${options.channel} listener connection ended`)));
    client.on('notification', (message) => {
      if (client === this.client && message.channel === options.channel)
        options.onNotification(message.payload);
    });
    try {
      await client.connect();
      await client.query(`listen ${pg.escapeIdentifier(options.channel)}`);
    } catch (error) {
      this.lose(client, error as Error);
      return;
    }
    if (client !== this.client) return;
    this.retryMs = options.retryMs ?? 100;
    this.listening = true;
    options.onListening();
    this.heartbeat = setInterval(() => this.beat(client), options.heartbeatMs ?? 1_000);
    this.heartbeat.unref();
  }

  /** A round trip on the listening connection; if it does not answer in time, treat the connection as lost. */
  private beat(client: pg.Client): void {
    const timer = setTimeout(
      () => this.lose(client, new Error(`${this.options.channel} listener heartbeat timed out`)),
      this.options.heartbeatMs ?? 1_000,
    );
    client
      .query('select 1')
      .then(() => clearTimeout(timer))
      .catch((error: Error) => {
        clearTimeout(timer);
        this.lose(client, error);
      });
  }

  /** The current connection failed: tell the owner (if it was listening), and reconnect with backoff. */
  private lose(client: pg.Client, error: Error): void {
    if (client !== this.client) return;
    void this.markDown(error);
    if (this.closed) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.connect();
    }, this.retryMs);
    this.retry.unref();
    this.retryMs = Math.min(this.retryMs * 2, this.options.maxRetryMs ?? 5_000);
  }

  private markDown(error?: Error): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    if (this.listening) {
      this.listening = false;
      this.options.onDown(error);
    }
    const client = this.client;
    this.client = null;
    return client ? client.end().catch(() => {}) : Promise.resolve();
  }
}
