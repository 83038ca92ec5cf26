import type { WebhookConfig, WorkerConfig } from '@newsroom/config';
import {
  claimDueWebhookDeliveries,
  claimWebhookDeliveries,
  type Db,
  type MadeWebhookAttempt,
  pruneWebhookEvents,
  recordWebhookAttempts,
  relayArticleChanges,
  type WebhookClaimRequest,
} from '@newsroom/domain';
import type { AddressPolicy } from '@newsroom/egress';
import type { RedisClient } from '@newsroom/queue';
import {
  createWebhookDeliveryQueue,
  type DeliverWebhookJob,
  type DeliverWebhookJobData,
  type WebhookDeliveryQueue,
  webhookDeliveryQueueName,
} from '@newsroom/queue';
import { Worker } from 'bullmq';
import pino, { type Logger } from 'pino';
import { type Periodic, startPeriodic } from '../periodic';
import { deliverWebhookJob, makeWebhookAttempt } from './deliver-webhook.job';
import { createMicroBatch } from './micro-batch';
import { startWebhookPump } from './webhook-pump';
import { createWebhookSender, type WebhookSender } from './webhook-sender';

export interface WebhookWorkerOptions {
  config: Pick<WorkerConfig, 'redis' | 'feeds'> &
    Partial<Pick<WorkerConfig, 'imgproxy'>> & { webhooks: WebhookConfig };
  db: Db;
  /** A 'worker' role connection (maxRetriesPerRequest null). Owned by the caller. */
  connection: RedisClient;
  logger?: Logger;
  /** Replaces the address policy of webhook targets (tests allow exactly 127.0.0.1). */
  isAllowedAddress?: AddressPolicy;
  now?: () => Date;
}

export interface WebhookWorker {
  /** Runs jobs queued by an earlier version of the worker (one per attempt); nothing queues new ones. */
  worker: Worker<DeliverWebhookJobData, unknown, 'deliver-webhook'>;
  queue: WebhookDeliveryQueue;
  /** Relays new outbox rows now (tests; production runs it every WEBHOOK_RELAY_INTERVAL_MS). */
  relayNow(): Promise<void>;
  /** A change committed: relay as soon as possible (see content-changes.ts). */
  wakeRelay(): void;
  /** Looks for due deliveries now and prunes if due (tests; production runs it every WEBHOOK_SWEEP_INTERVAL_MS). */
  sweepNow(): Promise<void>;
  close(): Promise<void>;
}

const pruneEveryMs = 60 * 60 * 1000;

/**
 * The webhook side of the worker:
 * - the relay (woken by each committed change, content-changes.ts, and every WEBHOOK_RELAY_INTERVAL_MS; Postgres
 *   only) turns new article-change outbox rows into events and delivery rows, then wakes the pump;
 * - the pump (webhook-pump.ts) claims due deliveries straight from Postgres in batches and runs their attempts,
 *   WEBHOOK_CONCURRENCY at a time, their results recorded in batches; Redis is not on that path;
 * - the sweep (every WEBHOOK_SWEEP_INTERVAL_MS) wakes the pump (deliveries made elsewhere: resends, feed_failed
 *   events, other replicas' retries) and prunes events older than WEBHOOK_RETENTION_DAYS once an hour;
 * - a BullMQ worker drains attempt jobs queued by an earlier version of the worker.
 * Any number of replicas can run: the relay position is locked SKIP LOCKED and attempts are claimed in Postgres.
 */
export async function createWebhookWorker(options: WebhookWorkerOptions): Promise<WebhookWorker> {
  const { config, db, connection } = options;
  const settings = config.webhooks;
  const logger = options.logger ?? pino({ level: 'silent' });
  const now = options.now ?? (() => new Date());
  const queue = createWebhookDeliveryQueue({ connection, prefix: config.redis.queuePrefix });
  const sender: WebhookSender = createWebhookSender({
    timeoutMs: settings.timeoutMs,
    allowPrivateAddresses: config.feeds.allowPrivateAddresses,
    ...(options.isAllowedAddress ? { isAllowedAddress: options.isAllowedAddress } : {}),
  });
  // A claim is held well past the attempt's own deadline: a replica killed mid-attempt releases it after that.
  const lockMs = settings.timeoutMs + 60_000;
  // Claims and results of the attempts running at once share their round trips (and commits) to Postgres.
  const claim = createMicroBatch(
    (requests: WebhookClaimRequest[]) => claimWebhookDeliveries(db, requests, lockMs),
    settings.concurrency,
  );
  // The pump frees a slot when its POST is over: up to this many results wait for (and share) a transaction.
  const maxUnrecorded = settings.concurrency * 4;
  const record = createMicroBatch(
    (attempts: MadeWebhookAttempt[]) =>
      recordWebhookAttempts(db, attempts, { disableAfterMs: settings.disableAfterMs, now: now() }),
    maxUnrecorded,
  );
  const deps = { db, sender, logger, settings, now, claim, record };
  const pump = startWebhookPump({
    claimDue: (limit) => claimDueWebhookDeliveries(db, limit, lockMs),
    attempt: async (delivery, onSent) => {
      const made = await makeWebhookAttempt(delivery, deps, onSent);
      return 'nextAttemptAt' in made ? made.nextAttemptAt : undefined;
    },
    concurrency: settings.concurrency,
    maxUnrecorded,
    idleMs: settings.sweepIntervalMs,
    logger,
  });

  const worker = new Worker<DeliverWebhookJobData, unknown, 'deliver-webhook'>(
    webhookDeliveryQueueName,
    (job) => deliverWebhookJob(job as DeliverWebhookJob, deps),
    { connection, prefix: config.redis.queuePrefix, concurrency: settings.concurrency },
  );
  worker.on('error', (error) => logger.error({ err: error }, 'webhook worker error'));
  worker.on('failed', (job, error) =>
    logger.warn({ jobId: job?.id, err: error.message }, 'webhook job failed'),
  );

  const relay = startPeriodic(async () => {
    try {
      for (;;) {
        const result = await relayArticleChanges(db, { imgproxy: config.imgproxy });
        if (result.expired) {
          logger.error('webhook relay fell behind the article-change retention: some events were never sent');
        }
        if (result.deliveries.length > 0) pump.wake();
        // A change committed behind an older open transaction is read once that one ends: look again soon.
        if (!result.more) return result.waiting ? 'soon' : undefined;
      }
    } catch (error) {
      logger.warn({ err: (error as Error).message }, 'webhook relay failed; next run retries');
    }
  }, settings.relayIntervalMs);

  let lastPrune = 0;
  const sweep: Periodic = startPeriodic(async () => {
    pump.wake();
    try {
      if (now().getTime() - lastPrune >= pruneEveryMs) {
        lastPrune = now().getTime();
        const removed = await pruneWebhookEvents(db, new Date(now().getTime() - settings.retentionMs));
        if (removed > 0) logger.info({ removed }, 'old webhook events pruned');
      }
    } catch (error) {
      logger.warn({ err: (error as Error).message }, 'webhook sweep failed; next run retries');
    }
  }, settings.sweepIntervalMs);

  let closing: Promise<void> | undefined;
  return {
    worker,
    queue,
    relayNow: () => relay.runNow(),
    wakeRelay: () => relay.wake(),
    sweepNow: () => sweep.runNow(),
    close() {
      closing ??= (async () => {
        await Promise.all([relay.stop(), sweep.stop()]);
        await Promise.all([pump.stop(), worker.close()]);
        await queue.close();
        await sender.close();
      })();
      return closing;
    },
  };
}
