import { createTestDatabase } from '@newsroom/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { claimDueWebhookDeliveries } from '../src/webhooks/webhook-attempt.repository';
import { createWebhookEndpoint } from '../src/webhooks/webhook-endpoint.service';

const { db, destroy } = await createTestDatabase();
afterAll(() => destroy());

async function dueDeliveries(count: number, nextAttemptAt = new Date(Date.now() - 1_000)) {
  const { endpoint } = await createWebhookEndpoint(db, {
    url: 'https://hooks.example.com/in',
    events: ['article.published'],
    site: null,
    enabled: true,
  });
  const ids = Array.from({ length: count }, (_, i) => `evt_claims_${endpoint.id}_${i}`);
  await db
    .insertInto('webhook_events')
    .values(
      ids.map((id) => ({ id, type: 'article.published', occurred_at: new Date(), body: `{"id":"${id}"}` })),
    )
    .execute();
  await db
    .insertInto('webhook_deliveries')
    .values(ids.map((id) => ({ endpoint_id: endpoint.id, event_id: id, next_attempt_at: nextAttemptAt })))
    .execute();
  return endpoint;
}

describe('claimDueWebhookDeliveries', () => {
  it('gives each due delivery to one of several claims made at once, with what sending it needs', async () => {
    const endpoint = await dueDeliveries(10);
    const claims = await Promise.all([1, 2, 3].map(() => claimDueWebhookDeliveries(db, 4, 60_000)));
    const ids = claims.flat().map((claim) => claim.id);
    expect(ids).toHaveLength(10);
    expect(new Set(ids).size).toBe(10);
    expect(claims.flat()[0]).toMatchObject({
      attempts: 0,
      attemptLimit: null,
      endpoint: { id: endpoint.id, url: 'https://hooks.example.com/in', enabled: true },
    });
    expect(claims.flat()[0]?.body).toMatch(/^\{"id":"evt_claims_/);
    expect(claims.flat()[0]?.endpoint.secrets).toHaveLength(1);
    // Held: nothing more to claim until the locks end.
    expect(await claimDueWebhookDeliveries(db, 10, 60_000)).toEqual([]);
  });

  it('skips deliveries not yet due, and takes them again once their lock has ended', async () => {
    await db.deleteFrom('webhook_endpoints').execute();
    await dueDeliveries(2, new Date(Date.now() + 60_000));
    await dueDeliveries(3);
    expect(await claimDueWebhookDeliveries(db, 10, 60_000)).toHaveLength(3);
    expect(await claimDueWebhookDeliveries(db, 10, 60_000)).toEqual([]);
    // A worker died mid-attempt: its claims end, another takes them.
    await db
      .updateTable('webhook_deliveries')
      .set({ locked_until: new Date(Date.now() - 1_000) })
      .execute();
    expect(await claimDueWebhookDeliveries(db, 10, 60_000)).toHaveLength(3);
  });
});
