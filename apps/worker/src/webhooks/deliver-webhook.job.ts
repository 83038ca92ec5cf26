import {
  type ClaimedWebhookDelivery,
  type Db,
  failWebhookDeliveryUnsent,
  type MadeWebhookAttempt,
  type WebhookAttemptResult,
  type WebhookClaimRequest,
} from '@newsroom/domain';
import type { DeliverWebhookJob } from '@newsroom/queue';
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
  sender: WebhookSender;
  logger: Logger;
  settings: { maxAttempts: number; retryBaseMs: number; disableAfterMs: number; timeoutMs: number };
  now(): Date;
}

export type DeliverWebhookResult =
  | { skipped: 'not-due' | 'endpoint-disabled' }
  | {
      outcome: WebhookAttemptResult['outcome']['kind'];
      statusCode: number | null;
      attempt: number;
      /** A retry: when it is due. */
      nextAttemptAt?: Date;
    };

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A job queued by an earlier version of the worker (one per attempt): claims that attempt in Postgres (a duplicate
 * or stale job finds nothing to do) and makes it. New attempts are not queued: the delivery pump claims due rows
 * straight from Postgres (webhook-pump.ts), and claims make sure the two never send the same attempt twice at once.
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
  return makeWebhookAttempt(claim, deps);
}

/**
 * One attempt of one claimed delivery: signs and POSTs the event, records the result (retry schedule, endpoint
 * failure run, 410; batched with the other attempts' results). A delivery of a disabled endpoint fails unsent.
 * The delivery row holds the schedule: a retry is made when a claim finds it due (`nextAttemptAt`).
 */
export async function makeWebhookAttempt(
  claim: ClaimedWebhookDelivery,
  deps: Omit<WebhookJobDeps, 'claim'>,
  /** Called when the POST is over, before its result is recorded (the delivery stays claimed until then). */
  onSent?: () => void,
): Promise<DeliverWebhookResult> {
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
  onSent?.();
  const result = judgeAttempt(response, claim, deps);
  const { endpointDisabled } = await deps.record({ delivery: claim, result });
  const logFields = {
    deliveryId: claim.id,
    endpointId: claim.endpoint.id,
    eventId: claim.eventId,
    attempt: claim.attempts + 1,
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
  return {
    outcome: result.outcome.kind,
    statusCode: result.statusCode,
    attempt: claim.attempts + 1,
    ...(result.outcome.kind === 'retry' ? { nextAttemptAt: result.outcome.nextAttemptAt } : {}),
  };
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
