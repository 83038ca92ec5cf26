import type { Db } from '@newsroom/domain';
import type { FeedFetcher } from '@newsroom/feeds';
import type { FeedImportQueue } from '@newsroom/queue';
import type { Logger } from 'pino';
import type { HostSlots } from './host-slots';
import type { ImportObserver } from './import-observer';
import type { SerialGate } from './serial-gate';

/** What the jobs run with; the worker's composition root builds it once. */
export interface JobDeps {
  db: Db;
  queue: FeedImportQueue;
  fetcher: FeedFetcher;
  /** Keep feed images on private and internal hosts: FEED_ALLOW_PRIVATE_ADDRESSES (default false). */
  allowPrivateImages?: boolean;
  logger: Logger;
  /** Big feeds are parsed and imported one at a time per process (see fetch-feed.job.ts). */
  bigFeedGate: SerialGate;
  /** Fetch slots per feed host, shared by all replicas (FEED_FETCHES_PER_HOST). */
  hostSlots: HostSlots;
  /**
   * Running fetch jobs per publisher, shared by all replicas (FEED_FETCHES_PER_PUBLISHER): a job of a
   * publisher already at its share is delayed at once (hostRedelayMs) instead of holding a worker slot.
   */
  publisherSlots: HostSlots;
  /** How long a fetch waits for a host slot before its job is delayed instead, and about how long that delay is (also a busy publisher's). */
  hostWaitMs: number;
  hostRedelayMs: number;
  /** Told about fetches, imported items and feed errors (metrics). */
  metrics: ImportObserver;
  /** Consecutive failures after which a publisher.feed_failed webhook event is recorded (default 5). */
  feedFailedAfter?: number;
  now(): Date;
}
