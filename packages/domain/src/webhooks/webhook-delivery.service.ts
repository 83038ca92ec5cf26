import type { Db, DbOrTx } from '../db/create-db';
import { ConflictError, NotFoundError } from '../errors';
import type { Page, PageRequest } from '../shared/page';
import {
  clearWebhookEndpointsFailing,
  recordWebhookEndpointFailure,
  updateWebhookDeliveryAttempts,
} from './webhook-attempt.repository';
import type {
  ClaimedWebhookDelivery,
  WebhookAttemptResult,
  WebhookDelivery,
  WebhookDeliveryAttempt,
} from './webhook-delivery';
import {
  deleteWebhookEventsBefore,
  findWebhookDeliveriesPage,
  findWebhookDelivery,
  findWebhookDeliveryAttempts,
  markWebhookDeliveryForResend,
} from './webhook-delivery-log.repository';
import { findWebhookEndpointById } from './webhook-endpoint.repository';

/** One attempt made: the delivery as claimed, and what came of it. */
export interface MadeWebhookAttempt {
  delivery: ClaimedWebhookDelivery;
  result: WebhookAttemptResult;
}

/**
 * Records attempts' results on their deliveries and endpoints, in one transaction: a success ends its endpoint's
 * run of failures; a failure starts one (if none runs), and disables the endpoint on 410 or when the run is older
 * than `disableAfterMs`. Returns, per attempt, the reason when the endpoint was disabled by it.
 */
export async function recordWebhookAttempts(
  db: Db,
  attempts: readonly MadeWebhookAttempt[],
  options: { disableAfterMs: number; now?: Date },
): Promise<{ endpointDisabled: string | null }[]> {
  if (attempts.length === 0) return [];
  const now = options.now ?? new Date();
  return db.transaction().execute(async (tx) => {
    await updateWebhookDeliveryAttempts(
      tx,
      attempts.map(({ delivery, result }) => ({ deliveryId: delivery.id, result })),
    );
    const delivered = attempts.filter(({ result }) => result.outcome.kind === 'delivered');
    await clearWebhookEndpointsFailing(
      tx,
      delivered.map(({ delivery }) => delivery.endpoint.id),
    );
    const outcomes: { endpointDisabled: string | null }[] = [];
    for (const { delivery, result } of attempts) {
      if (result.outcome.kind === 'delivered') {
        outcomes.push({ endpointDisabled: null });
        continue;
      }
      const gone = result.outcome.kind === 'gone' ? 'the receiver answered 410 Gone' : null;
      const endpointDisabled = await recordWebhookEndpointFailure(
        tx,
        delivery.endpoint.id,
        new Date(now.getTime() - options.disableAfterMs),
        gone,
      );
      outcomes.push({ endpointDisabled });
    }
    return outcomes;
  });
}

/** recordWebhookAttempts for one attempt. */
export async function recordWebhookAttempt(
  db: Db,
  delivery: ClaimedWebhookDelivery,
  result: WebhookAttemptResult,
  options: { disableAfterMs: number; now?: Date },
): Promise<{ endpointDisabled: string | null }> {
  const [outcome] = await recordWebhookAttempts(db, [{ delivery, result }], options);
  return outcome ?? { endpointDisabled: null };
}

async function endpointMustExist(db: DbOrTx, endpointId: string) {
  const endpoint = await findWebhookEndpointById(db, endpointId);
  if (!endpoint) throw new NotFoundError('webhook', endpointId);
  return endpoint;
}

/** An endpoint's delivery log, newest first. */
export async function listWebhookDeliveries(
  db: DbOrTx,
  endpointId: string,
  page: PageRequest,
): Promise<Page<WebhookDelivery>> {
  await endpointMustExist(db, endpointId);
  return findWebhookDeliveriesPage(db, endpointId, page);
}

/** Attempts a delivery's log keeps in view: 8 retries plus resends, newest kept. */
export const webhookAttemptLogLimit = 100;

/** Every attempt of one delivery (the last 100), oldest first. */
export async function listWebhookDeliveryAttempts(
  db: DbOrTx,
  endpointId: string,
  deliveryId: string,
): Promise<WebhookDeliveryAttempt[]> {
  await endpointMustExist(db, endpointId);
  const attempts = await findWebhookDeliveryAttempts(db, endpointId, deliveryId, webhookAttemptLogLimit);
  if (!attempts) throw new NotFoundError('webhook_delivery', deliveryId);
  return attempts;
}

/**
 * Sends one delivery again, with the same event id and body: it becomes pending and due now, with one more
 * attempt (not retried on its own; resend again if it fails). The worker's sweep picks it up within
 * seconds. A disabled endpoint is refused (409 WEBHOOK_DISABLED): enable it first.
 */
export async function resendWebhookDelivery(
  db: DbOrTx,
  endpointId: string,
  deliveryId: string,
): Promise<WebhookDelivery> {
  const endpoint = await endpointMustExist(db, endpointId);
  if (!endpoint.enabled) {
    throw new ConflictError('WEBHOOK_DISABLED', 'The endpoint is disabled: enable it before sending again');
  }
  if (!(await markWebhookDeliveryForResend(db, endpointId, deliveryId))) {
    throw new NotFoundError('webhook_delivery', deliveryId);
  }
  return (await findWebhookDelivery(db, endpointId, deliveryId)) as WebhookDelivery;
}

/** Removes events (and their deliveries) older than `olderThan`, at most `maxBatches` x `batchSize` per call. */
export async function pruneWebhookEvents(
  db: Db,
  olderThan: Date,
  options: { batchSize?: number; maxBatches?: number } = {},
): Promise<number> {
  const { batchSize = 1_000, maxBatches = 20 } = options;
  let removed = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const count = await deleteWebhookEventsBefore(db, olderThan, batchSize);
    removed += count;
    if (count < batchSize) break;
  }
  return removed;
}
