import { type DefaultJobOptions, type Job, Queue } from 'bullmq';
import type { RedisClient } from './redis-connection';

/**
 * The webhook-delivery job contract: one job per attempt of one delivery. Workers now deliver straight from the
 * Postgres rows and queue no jobs; they still run jobs of this contract (queued by earlier versions). The payload carries ids only;
 * the worker reads the URL, the body and the secrets from Postgres when the attempt runs, and the
 * delivery row (not BullMQ) keeps the attempt count and the retry schedule.
 */
export const webhookDeliveryQueueName = 'webhook-delivery';

export interface DeliverWebhookJobData {
  deliveryId: string;
  /** Attempts made before this one (0 for the first): a job for an attempt already made does nothing. */
  attempt: number;
}

export type WebhookDeliveryQueue = Queue<DeliverWebhookJobData, unknown, 'deliver-webhook'>;
export type DeliverWebhookJob = Job<DeliverWebhookJobData, unknown, 'deliver-webhook'>;

/**
 * One attempt, one job, no BullMQ retry (the job schedules the next attempt itself). Finished jobs are
 * dropped soon: the delivery log in Postgres is the record.
 */
export const webhookDeliveryJobOptions: DefaultJobOptions = {
  attempts: 1,
  removeOnComplete: { age: 3600, count: 1_000 },
  removeOnFail: { age: 24 * 3600, count: 1_000 },
};

/**
 * `webhook-<deliveryId>-<attempt>`: deterministic, so the relay, the sweep and a retry asking for the same
 * attempt add one job (BullMQ ignores an add() whose id exists). No ':' and not all digits (BullMQ rules).
 */
export function webhookAttemptJobId(deliveryId: string, attempt: number): string {
  return `webhook-${deliveryId}-${attempt}`;
}

export function createWebhookDeliveryQueue(options: {
  connection: RedisClient;
  prefix: string;
  onError?: (error: Error) => void;
}): WebhookDeliveryQueue {
  const queue = new Queue<DeliverWebhookJobData, unknown, 'deliver-webhook'>(webhookDeliveryQueueName, {
    connection: options.connection,
    prefix: options.prefix,
    defaultJobOptions: webhookDeliveryJobOptions,
  });
  queue.on('error', options.onError ?? (() => {}));
  return queue;
}

/** Enqueues attempts (delayed by `delayMs` when given), atomically; attempts already queued are left as they are. */
export async function enqueueWebhookAttempts(
  queue: WebhookDeliveryQueue,
  attempts: readonly { id: string; attempts: number }[],
  delayMs = 0,
): Promise<void> {
  if (attempts.length === 0) return;
  await queue.addBulk(
    attempts.map(({ id, attempts: attempt }) => ({
      name: 'deliver-webhook' as const,
      data: { deliveryId: id, attempt },
      opts: { jobId: webhookAttemptJobId(id, attempt), ...(delayMs > 0 ? { delay: delayMs } : {}) },
    })),
  );
}
