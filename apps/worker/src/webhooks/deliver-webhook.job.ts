import {
  type ClaimedWebhookDelivery,
  type Db,
  failWebhookDeliveryUnsent,
  type MadeWebhookAttempt,
  type WebhookAttemptResult,
  type WebhookClaimRequest,
} from '@newsroom/domain';
import { type DeliverWebhookJob, enqueueWebhookAttempts, type WebhookDeliveryQueue } from '@newsroom/queue';
import { UnrecoverableError } from 'bullmq';
import type { Logger } from 'pino';
import { webhookRetryDelayMs } from './webhook-retry-delay';
import type { WebhookResponse, WebhookSender } from './webhook-sender';
import { signWebhook } from './webhook-signature';

export interface WebhookJobDeps {
  db: Db;
  /** Claims one attempt for the attempt's deadline plus a minute (batched with the other jobs' claims). */
  claim(request: WebhookClaimRequest): Promise<ClaimedWebhookDelivery | undefined>;
  /** Records one attempt made (batched with the other jobs' results). */
  record(attempt: MadeWebhookAttempt): Promise<{ endpointDisabled: string | null }>;
  queue: WebhookDeliveryQueue;
  sender: WebhookSender;
  logger: Logger;
  settings: { maxAttempts: number; retryBaseMs: number; disableAfterMs: number; timeoutMs: number };
  now(): Date;
}

export type DeliverWebhookResult =
  | { skipped: 'not-due' | 'endpoint-disabled' }
  | { outcome: WebhookAttemptResult['outcome']['kind']; statusCode: number | null; attempt: number };

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * One attempt of one delivery: claims it in Postgres (a duplicate or stale job finds nothing to do),
 * signs and POSTs the event, records the result (retry schedule, endpoint failure run, 410), and queues
 * the next attempt when there is one. The job itself never retries: the delivery row is the schedule, and
 * the worker's sweep re-enqueues a due attempt whose job was lost.
 */
export async function deliverWebhookJob(
  job: DeliverWebhookJob,
  deps: WebhookJobDeps,
): Promise<DeliverWebhookResult> {
  const { deliveryId, attempt } = job.data;
  if (typeof deliveryId !== 'string' || !uuidPattern.test(deliveryId) || !Number.isInteger(attempt)) {
    throw new UnrecoverableError(
      'deliver-webhook needs data { "deliveryId": "<uuid>", "attempt": <integer> }',
    );
  }
  const claim = await deps.claim({ deliveryId, attempt });
  if (!claim) return { skipped: 'not-due' };
  if (!claim.endpoint.enabled) {
    await failWebhookDeliveryUnsent(deps.db, claim.id, 'not sent: the endpoint is disabled');
    return { skipped: 'endpoint-disabled' };
  }

  const timestamp = Math.floor(deps.now().getTime() / 1000);
  const response = await deps.sender.send(
    claim.endpoint.url,
    {
      'webhook-id': claim.eventId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signWebhook(claim.endpoint.secrets, claim.eventId, timestamp, claim.body),
    },
    claim.body,
  );
  const result = judgeAttempt(response, claim, deps);
  const { endpointDisabled } = await deps.record({ delivery: claim, result });
  const logFields = {
    deliveryId,
    endpointId: claim.endpoint.id,
    eventId: claim.eventId,
    attempt: attempt + 1,
    outcome: result.outcome.kind,
    statusCode: result.statusCode,
    durationMs: Math.round(result.durationMs),
    ...(result.error ? { err: result.error } : {}),
  };
  if (result.outcome.kind === 'delivered') deps.logger.debug(logFields, 'webhook delivered');
  else deps.logger.info(logFields, 'webhook attempt failed');
  if (endpointDisabled) {
    deps.logger.warn(
      { endpointId: claim.endpoint.id, reason: endpointDisabled },
      'webhook endpoint disabled',
    );
  }
  if (result.outcome.kind === 'retry') {
    const delay = Math.max(0, result.outcome.nextAttemptAt.getTime() - deps.now().getTime());
    // Best effort: if this add is lost, the sweep enqueues the attempt once it is due.
    await enqueueWebhookAttempts(deps.queue, [{ id: claim.id, attempts: attempt + 1 }], delay).catch(
      (error: unknown) =>
        deps.logger.warn({ err: error, deliveryId }, 'could not queue the next webhook attempt'),
    );
  }
  return { outcome: result.outcome.kind, statusCode: result.statusCode, attempt: attempt + 1 };
}

const retryableStatus = (status: number) => status === 408 || status === 429 || status >= 500;

/** Delivered (2xx), retried (network, timeout, 408, 429, 5xx) while attempts remain, 410 gone, else failed. */
export function judgeAttempt(
  response: WebhookResponse,
  claim: Pick<ClaimedWebhookDelivery, 'attempts' | 'attemptLimit'>,
  deps: Pick<WebhookJobDeps, 'settings' | 'now'>,
): WebhookAttemptResult {
  const made = claim.attempts + 1;
  const limit = claim.attemptLimit ?? deps.settings.maxAttempts;
  const retry = (retryAfterMs?: number) =>
    made < limit
      ? {
          kind: 'retry' as const,
          nextAttemptAt: new Date(
            deps.now().getTime() + webhookRetryDelayMs(made, deps.settings.retryBaseMs, retryAfterMs),
          ),
        }
      : { kind: 'failed' as const };
  if (!response.answered) {
    const retryable = response.code === 'TIMEOUT' || response.code === 'NETWORK';
    return {
      outcome: retryable ? retry() : { kind: 'failed' },
      statusCode: null,
      durationMs: response.durationMs,
      error: response.error,
      responseExcerpt: null,
    };
  }
  const status = response.statusCode;
  const base = { statusCode: status, durationMs: response.durationMs, responseExcerpt: response.excerpt };
  if (status >= 200 && status < 300) return { ...base, outcome: { kind: 'delivered' }, error: null };
  if (status === 410) return { ...base, outcome: { kind: 'gone' }, error: 'HTTP 410: the endpoint is gone' };
  if (retryableStatus(status)) {
    return { ...base, outcome: retry(response.retryAfterMs), error: `HTTP ${status}` };
  }
  const why = status >= 300 && status < 400 ? ' (redirects are not followed)' : '';
  return { ...base, outcome: { kind: 'failed' }, error: `HTTP ${status}${why}` };
}
