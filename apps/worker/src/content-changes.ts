import { contentChangedChannel, PostgresListener } from '@newsroom/domain';
import type { Logger } from 'pino';

export interface ContentChangesOptions {
  /** A session of its own (LISTEN): DATABASE_DIRECT_URL, never through a transaction-mode pooler. */
  connectionString: string;
  connectTimeoutMs?: number;
  /** Told when the listener's connection is lost (it reconnects by itself). */
  logger?: Logger;
  /** Something may have changed: new article-change outbox rows to relay. */
  onChange(): void;
}

/**
 * Wakes the outbox relays (webhooks, CDN purges) when Postgres says a change committed (`content_changed`), and
 * when it listens again after an outage (changes may have been missed meanwhile), so a publish leaves for the
 * webhooks and the CDN at once rather than at the relays' next run. Each relay keeps its interval: a lost
 * notification, or the listener down, only delays a change until then.
 */
export async function listenForContentChanges(options: ContentChangesOptions): Promise<PostgresListener> {
  const { logger, onChange } = options;
  const listener = new PostgresListener({
    connectionString: options.connectionString,
    ...(options.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: options.connectTimeoutMs }),
    channel: contentChangedChannel,
    applicationName: 'newsroom-worker-changes',
    onNotification: onChange,
    onListening: onChange,
    onDown: (error) => {
      if (error) {
        logger?.warn(
          { err: error.message },
          'content change notifications lost: relays run on their interval until they return',
        );
      }
    },
  });
  await listener.start();
  return listener;
}
