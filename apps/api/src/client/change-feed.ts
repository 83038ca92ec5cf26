import { randomUUID } from 'node:crypto';
import pg from 'pg';

export const contentChangedChannel = 'content_changed';

export interface ChangeFeedOptions {
  connectionString: string;
  /** How often the listening connection is proven alive; a silent failure is noticed within about this long. */
  heartbeatMs?: number;
  /** First retry delay after the connection is lost; doubles up to maxRetryMs. */
  retryMs?: number;
  maxRetryMs?: number;
  /** A connection attempt with no answer this long fails (and is retried), so a hung server cannot stall it. */
  connectTimeoutMs?: number;
  onError?: (error: Error) => void;
}

/**
 * This replica's view of "has client-visible content changed?": a dedicated Postgres connection that LISTENs
 * to `content_changed` (sent by triggers on commit of any change to articles, host sites, sites or keys).
 *
 * - `generation` goes up on every change, and whenever the connection is lost or re-established
 *   (changes may have been missed then). Caches key their entries by it.
 * - `token` names the content state the same way on every replica (the last change's transaction id),
 *   or a random value until the first change is seen; null while the feed is down.
 * - `healthy` is false while the connection is down: caches must then not be used, so nothing can be
 *   served stale for longer than it takes to notice (one heartbeat).
 */
export class ChangeFeed {
  generation = 0;
  token: string | null = null;
  private client: pg.Client | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private retry: NodeJS.Timeout | null = null;
  private retryMs: number;
  private closed = false;

  constructor(private readonly options: ChangeFeedOptions) {
    this.retryMs = options.retryMs ?? 100;
  }

  get healthy(): boolean {
    return this.token !== null;
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
    const client = new pg.Client({
      connectionString: this.options.connectionString,
      application_name: 'newsroom-api-changes',
      keepAlive: true,
      connectionTimeoutMillis: this.options.connectTimeoutMs ?? 5_000,
    });
    this.client = client;
    client.on('error', (error) => this.lose(client, error));
    client.on('end', () => this.lose(client, new Error('change feed connection ended')));
    client.on('notification', (message) => {
      if (client !== this.client || message.channel !== contentChangedChannel) return;
      this.generation++;
      this.token = message.payload ?? randomUUID();
    });
    try {
      await client.connect();
      await client.query(`listen ${contentChangedChannel}`);
    } catch (error) {
      this.lose(client, error as Error);
      return;
    }
    if (client !== this.client) return;
    this.retryMs = this.options.retryMs ?? 100;
    // Changes may have happened while we were not listening: start from a new generation.
    this.generation++;
    this.token = randomUUID();
    this.heartbeat = setInterval(() => this.beat(client), this.options.heartbeatMs ?? 1_000);
    this.heartbeat.unref();
  }

  /** A round trip on the listening connection; if it does not answer in time, treat the feed as lost. */
  private beat(client: pg.Client): void {
    const timer = setTimeout(
      () => this.lose(client, new Error('change feed heartbeat timed out')),
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

  /** The current connection failed: stop trusting caches, and reconnect with backoff. */
  private lose(client: pg.Client, error: Error): void {
    if (client !== this.client) return;
    const wasUp = this.healthy;
    void this.markDown();
    if (this.closed) return;
    if (wasUp) this.options.onError?.(error);
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.connect();
    }, this.retryMs);
    this.retry.unref();
    this.retryMs = Math.min(this.retryMs * 2, this.options.maxRetryMs ?? 5_000);
  }

  private markDown(): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    if (this.token !== null) this.generation++;
    this.token = null;
    const client = this.client;
    this.client = null;
    return client ? client.end().catch(() => {}) : Promise.resolve();
  }
}
