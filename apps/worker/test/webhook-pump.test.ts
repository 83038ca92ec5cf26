import type { ClaimedWebhookDelivery } from '@newsroom/domain';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { startWebhookPump } from '../src/webhooks/webhook-pump';

// The pump's scheduling alone (claims from a list); webhooks.test.ts and webhooks-outage.test.ts run it on Postgres.
const delivery = (id: number): ClaimedWebhookDelivery => ({
  id: String(id),
  attempts: 0,
  attemptLimit: null,
  eventId: `evt_${id}`,
  body: '{}',
  endpoint: { id: 'e', url: 'http://127.0.0.1/', enabled: true, secrets: [] },
});

async function until(check: () => boolean, boundMs = 5_000) {
  for (const deadline = Date.now() + boundMs; !check(); await new Promise((r) => setTimeout(r, 5))) {
    if (Date.now() > deadline) throw new Error(`not within ${boundMs} ms`);
  }
}

describe('startWebhookPump', () => {
  it('makes every due attempt once, at most `concurrency` POSTs and `maxUnrecorded` claimed at once', async () => {
    const due = Array.from({ length: 60 }, (_, i) => delivery(i));
    const made: string[] = [];
    let sending = 0;
    let maxSending = 0;
    let unrecorded = 0;
    let maxUnrecorded = 0;
    let largestClaim = 0;
    const pump = startWebhookPump({
      claimDue: async (limit) => {
        largestClaim = Math.max(largestClaim, limit);
        const claims = due.splice(0, limit);
        unrecorded += claims.length;
        maxUnrecorded = Math.max(maxUnrecorded, unrecorded);
        return claims;
      },
      attempt: async (claim, onSent) => {
        sending += 1;
        maxSending = Math.max(maxSending, sending);
        await new Promise((r) => setTimeout(r, 2));
        sending -= 1;
        onSent();
        await new Promise((r) => setTimeout(r, 4)); // the result waiting for its batch
        made.push(claim.id);
        unrecorded -= 1;
        return undefined;
      },
      concurrency: 4,
      maxUnrecorded: 12,
      idleMs: 60_000,
      logger: pino({ level: 'silent' }),
    });
    await until(() => made.length === 60);
    await pump.stop();
    expect(new Set(made).size).toBe(60);
    expect(maxSending).toBeLessThanOrEqual(4);
    expect(maxUnrecorded).toBeLessThanOrEqual(12);
    expect(largestClaim).toBeLessThanOrEqual(8);
  });

  it('wakes at a retry it scheduled, and when woken', async () => {
    const due: ClaimedWebhookDelivery[] = [delivery(1)];
    const made: string[] = [];
    const pump = startWebhookPump({
      claimDue: async (limit) => due.splice(0, limit),
      attempt: async (claim, onSent) => {
        onSent();
        made.push(claim.id);
        if (made.length === 1) {
          // The row is due again at the retry time; nothing but the pump's own timer looks then (idleMs is long).
          setTimeout(() => due.push(delivery(1)), 10);
          return new Date(Date.now() + 30);
        }
        return undefined;
      },
      concurrency: 2,
      maxUnrecorded: 8,
      idleMs: 60_000,
      logger: pino({ level: 'silent' }),
    });
    await until(() => made.length === 2);
    due.push(delivery(2));
    pump.wake();
    await until(() => made.length === 3);
    await pump.stop();
    expect(made).toEqual(['1', '1', '2']);
  });
});
