import type { WebhookConfig, WorkerConfig } from '@newsroom/config';
import {
  claimWebhookDeliveries,
  type Db,
  type DueWebhookDelivery,
  findDueWebhookDeliveries,
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
  enqueueWebhookAttempts,
  type WebhookDeliveryQueue,
  webhookDeliveryQueueName,
} from '@newsroom/queue';
import { Worker } from 'bullmq';
import pino, { type Logger } from 'pino';
import { type Periodic, startPeriodic } from '../periodic';
import { withTimeout } from '../with-timeout';
import { deliverWebhookJob } from './deliver-webhook.job';
import { createMicroBatch } from './micro-batch';
import { createWebhookSender, type WebhookSender } from './webhook-sender';

export interface WebhookWorkerOptions {
  config: Pick<WorkerConfig, 'redis' | 'feeds'> & { webhooks: WebhookConfig };
  db: Db;
  /** A 'worker' role connection (maxRetriesPerRequest null). Owned by the caller. */
  connection: RedisClient;
  logger?: Logger;
  /** Replaces the address policy of webhook targets (tests allow exactly 127.0.0.1). */
  isAllowedAddress?: AddressPolicy;
  now?: () => Date;
}

export interface WebhookWorker {
  worker: Worker<DeliverWebhookJobData, unknown, 'deliver-webhook'>;
  queue: WebhookDeliveryQueue;
  /** Relays new outbox rows now (tests; production runs it every WEBHOOK_RELAY_INTERVAL_MS). */
  relayNow(): Promise<void>;
  /** Enqueues due deliveries now (tests; production runs it every WEBHOOK_SWEEP_INTERVAL_MS). */
  sweepNow(): Promise<void>;
  close(): Promise<void>;
}

/** Redis commands of the relay and the sweep wait at most this long (the sweep retries later). */
const enqueueTimeoutMs = 5_000;
const pruneEveryMs = 60 * 60 * 1000;

/**
 * The webhook side of the worker:
 * - the relay (every WEBHOOK_RELAY_INTERVAL_MS, Postgres only) turns new article-change outbox rows into
 *   events and delivery rows, then enqueues their first attempts;
 * - the sweep (every WEBHOOK_SWEEP_INTERVAL_MS) enqueues every due pending delivery whose job is not in
 *   Redis (lost in an outage, a resend, a feed_failed event): deterministic job ids make it a no-op for the
 *   others; it also prunes events older than WEBHOOK_RETENTION_DAYS once an hour;
 * - a BullMQ worker runs the attempts, WEBHOOK_CONCURRENCY at a time.
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
  // Claims and results of the attempts running at once share their round trips (and commits) to Postgres.
  const claim = createMicroBatch(
    // Held well past the attempt's own deadline: a second job for it waits for the sweep after that.
    (requests: WebhookClaimRequest[]) => claimWebhookDeliveries(db, requests, settings.timeoutMs + 60_000),
    settings.concurrency,
  );
  const record = createMicroBatch(
    (attempts: MadeWebhookAttempt[]) =>
      recordWebhookAttempts(db, attempts, { disableAfterMs: settings.disableAfterMs, now: now() }),
    settings.concurrency,
  );
  const deps = { db, queue, sender, logger, settings, now, claim, record };

  const worker = new Worker<DeliverWebhookJobData, unknown, 'deliver-webhook'>(
    webhookDeliveryQueueName,
    (job) => deliverWebhookJob(job as DeliverWebhookJob, deps),
    { connection, prefix: config.redis.queuePrefix, concurrency: settings.concurrency },
  );
  worker.on('error', (error) => logger.error({ err: error }, 'webhook worker error'));
  worker.on('failed', (job, error) =>
    logger.warn({ jobId: job?.id, err: error.message }, 'webhook job failed'),
  );

  // While Redis is down, commands would wait in ioredis's offline queue: skip, the sweep catches up.
  const enqueue = async (deliveries: DueWebhookDelivery[]) => {
    if (deliveries.length === 0 || connection.status !== 'ready') return;
    await withTimeout(
      enqueueWebhookAttempts(queue, deliveries),
      enqueueTimeoutMs,
      `queueing webhook attempts took longer than ${enqueueTimeoutMs} ms`,
    );
  };

  const relay = startPeriodic(async () => {
    try {
      for (;;) {
        const result = await relayArticleChanges(db);
        if (result.expired) {
          logger.error('webhook relay fell behind the article-change retention: some events were never sent');
        }
        await enqueue(result.deliveries).catch((error: unknown) =>
          logger.warn({ err: (error as Error).message }, 'could not queue webhook attempts (the sweep will)'),
        );
        if (!result.more) return;
      }
    } catch (error) {
      logger.warn({ err: (error as Error).message }, 'webhook relay failed; next run retries');
    }
  }, settings.relayIntervalMs);

  let lastPrune = 0;
  const sweep: Periodic = startPeriodic(async () => {
    try {
      if (connection.status === 'ready') {
        for (let round = 0; round < 10; round++) {
          const due = await findDueWebhookDeliveries(db, 1_000);
          await enqueue(due);
          if (due.length < 1_000) break;
        }
      }
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
    sweepNow: () => sweep.runNow(),
    close() {
      closing ??= (async () => {
        await Promise.all([relay.stop(), sweep.stop()]);
        await worker.close();
        await queue.close();
        await sender.close();
      })();
      return closing;
    },
  };
}
