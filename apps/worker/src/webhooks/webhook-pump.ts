import type { ClaimedWebhookDelivery } from '@newsroom/domain';
import type { Logger } from 'pino';

export interface WebhookPumpOptions {
  /** Claims up to `limit` due deliveries in one statement (none claimed twice, across replicas). */
  claimDue(limit: number): Promise<ClaimedWebhookDelivery[]>;
  /**
   * Makes one claimed attempt and records it; answers when the next attempt is due (a retry), if any. Calls
   * `onSent` once its POST is over (its slot is then free while the result waits for its batch to be recorded).
   */
  attempt(claim: ClaimedWebhookDelivery, onSent: () => void): Promise<Date | undefined>;
  /** POSTs in flight at most. */
  concurrency: number;
  /** Attempts claimed and not yet recorded at most (those sending, and those whose result waits to be recorded). */
  maxUnrecorded: number;
  /** With nothing due, Postgres is asked again after this long (other replicas' rows, resends, lost wake-ups). */
  idleMs: number;
  logger: Logger;
}

export interface WebhookPump {
  /** Something may be due now (the relay wrote rows): claim without waiting for the idle timer. */
  wake(): void;
  /** Stops claiming and waits for the attempts in flight. */
  stop(): Promise<void>;
}

/**
 * Delivers straight from the delivery rows: claims due deliveries in one statement, runs them concurrently (at
 * most `concurrency` POSTs), and keeps up to `concurrency` more claimed and ready, so a freed slot starts the next
 * POST at once while the next claim refills the reserve. With nothing due it
 * sleeps until woken (new rows, a retry of its own falling due) or `idleMs` passes. Postgres is the only record;
 * a wake-up lost, or a replica killed mid-attempt, only delays the attempt (its claim expires, another takes it).
 */
export function startWebhookPump(options: WebhookPumpOptions): WebhookPump {
  const { concurrency, logger } = options;
  const inFlight = new Set<Promise<void>>();
  let sending = 0;
  /** Claimed, waiting for a slot (held by their claim meanwhile). */
  const ready: ClaimedWebhookDelivery[] = [];
  let stopped = false;
  let nudge: (() => void) | undefined;
  let nudged = false;
  let retryTimer: NodeJS.Timeout | undefined;
  let retryAt = Number.POSITIVE_INFINITY;

  const wake = () => {
    nudged = true;
    nudge?.();
  };
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (nudged || stopped) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        nudge = undefined;
        resolve();
      }
      nudge = done;
    });
  /** One timer, at the earliest retry this replica scheduled. */
  const wakeAt = (at: Date) => {
    if (at.getTime() >= retryAt) return;
    retryAt = at.getTime();
    clearTimeout(retryTimer);
    retryTimer = setTimeout(
      () => {
        retryAt = Number.POSITIVE_INFINITY;
        wake();
      },
      Math.max(0, retryAt - Date.now()),
    );
    retryTimer.unref();
  };

  /** How many more to claim: slots free plus a reserve of `concurrency`, within `maxUnrecorded`. */
  const freeSlots = () =>
    Math.min(2 * concurrency - sending, options.maxUnrecorded - inFlight.size) - ready.length;
  const launch = () => {
    while (sending < concurrency && ready.length > 0) start(ready.shift() as ClaimedWebhookDelivery);
  };
  const start = (claim: ClaimedWebhookDelivery) => {
    sending += 1;
    let sent = false;
    const onSent = () => {
      if (sent) return;
      sent = true;
      sending -= 1;
      launch();
      // Refill the reserve, after the current turn so slots freed together share one claim.
      if (!stopped) setImmediate(wake);
    };
    const running: Promise<void> = options
      .attempt(claim, onSent)
      .then((nextAttemptAt) => {
        if (nextAttemptAt) wakeAt(nextAttemptAt);
      })
      .catch((error: unknown) =>
        logger.warn({ err: (error as Error).message, deliveryId: claim.id }, 'webhook attempt failed to run'),
      )
      .finally(() => {
        inFlight.delete(running);
        if (sent && !stopped) setImmediate(wake);
        onSent();
      });
    inFlight.add(running);
  };

  const loop = (async () => {
    while (!stopped) {
      nudged = false;
      const free = freeSlots();
      let full = false;
      if (free > 0) {
        try {
          const claims = await options.claimDue(free);
          // Even when stopping: claimed, they are made (stop waits for them) rather than held until their lock ends.
          ready.push(...claims);
          launch();
          full = claims.length === free;
        } catch (error) {
          logger.warn({ err: (error as Error).message }, 'claiming webhook deliveries failed; retrying');
        }
      }
      // Saturated: a freed slot wakes us. Nothing more due: new rows, a retry, or the idle timer.
      if (!full || freeSlots() <= 0) await sleep(options.idleMs);
    }
  })();

  return {
    wake,
    async stop() {
      stopped = true;
      clearTimeout(retryTimer);
      nudge?.();
      await loop;
      while (ready.length > 0 || inFlight.size > 0) {
        launch();
        await Promise.race([...inFlight]).catch(() => {});
      }
    },
  };
}
