import { describe, expect, it } from 'vitest';
import {
  deliveriesPageSize,
  useCreateWebhook,
  useDeleteWebhook,
  useEditWebhook,
  useResendDelivery,
  useRotateWebhookSecret,
  webhookDeliveriesQuery,
  webhookDeliveryAttemptsQuery,
  webhookKeys,
  webhookListQuery,
} from '../../src/api/webhooks';
import { setUpDashboardApi } from '../support/dashboard-test-app';
import { adminHarnessPerTest } from '../support/query-harness';
import { endpointWithFailedDelivery } from '../support/webhook-fixtures';

// The webhooks query module against the real API: endpoints and their delivery logs, the secret shown
// once, and what each change refreshes.

const server = await setUpDashboardApi();
const harness = adminHarnessPerTest(server);

const receiver = 'https://hooks.example.com/newsroom';

/** An endpoint with one failed delivery and its two attempts, as the worker records them. */
async function endpointWithDelivery() {
  const { endpoint, deliveryId } = await endpointWithFailedDelivery(server.db, receiver);
  return { endpoint, deliveryId: String(deliveryId) };
}

describe('webhook keys', () => {
  it("keep the endpoints under one key and each endpoint's deliveries, pages and attempts under another", () => {
    expect(webhookListQuery.queryKey).toEqual(['webhooks', 'list']);
    expect(webhookDeliveriesQuery('e1', 2).queryKey).toEqual(['webhook-deliveries', 'e1', 2]);
    expect(webhookDeliveryAttemptsQuery('e1', 'd1').queryKey.slice(0, 2)).toEqual(
      webhookKeys.deliveries('e1'),
    );
    // The logs follow the worker while open.
    expect(webhookDeliveriesQuery('e1', 1).refetchInterval).toBe(5_000);
  });
});

describe('webhook queries and mutations', () => {
  it('registers an endpoint whose secret is shown once; the list carries it without the secret', async () => {
    harness().prime(webhookKeys.list(), webhookKeys.deliveries('other'));
    const created = await harness().run(
      harness().hook(() => useCreateWebhook()),
      { url: receiver, events: ['article.published', 'article.deleted'], enabled: true },
    );
    expect(created.secret).toMatch(/^whsec_/);
    expect(harness().invalidated(webhookKeys.list(), webhookKeys.deliveries('other'))).toEqual([
      webhookKeys.list(),
    ]);
    const list = await harness().queryClient.fetchQuery(webhookListQuery);
    expect(list.data.find((endpoint) => endpoint.id === created.id)).toMatchObject({ url: receiver });
    expect(JSON.stringify(list)).not.toContain(created.secret);
  });

  it('edits, rotates the secret and deletes, refreshing the endpoints each time', async () => {
    const { endpoint } = await endpointWithDelivery();
    harness().prime(webhookKeys.list());
    const edited = await harness().run(
      harness().hook(() => useEditWebhook(endpoint.id)),
      { events: ['article.updated'] },
    );
    expect(edited.events).toEqual(['article.updated']);
    expect(harness().invalidated(webhookKeys.list())).toEqual([webhookKeys.list()]);

    harness().prime(webhookKeys.list());
    const rotated = await harness().run(
      harness().hook(() => useRotateWebhookSecret(endpoint.id)),
      undefined,
    );
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(harness().invalidated(webhookKeys.list())).toEqual([webhookKeys.list()]);

    harness().prime(webhookKeys.list());
    await harness().run(
      harness().hook(() => useDeleteWebhook()),
      endpoint.id,
    );
    expect(harness().invalidated(webhookKeys.list())).toEqual([webhookKeys.list()]);
    const list = await harness().queryClient.fetchQuery({ ...webhookListQuery, staleTime: 0 });
    expect(list.data.map((item) => item.id)).not.toContain(endpoint.id);
  });

  it("reads an endpoint's delivery log a page at a time, with each delivery's attempts", async () => {
    const { endpoint, deliveryId } = await endpointWithDelivery();
    const page = await harness().queryClient.fetchQuery(webhookDeliveriesQuery(endpoint.id, 1));
    expect(server.api().calls.at(-1)?.url).toBe(
      `/api/v1/webhooks/${endpoint.id}/deliveries?page=1&limit=${deliveriesPageSize}`,
    );
    expect(page.data.map((delivery) => String(delivery.id))).toEqual([deliveryId]);
    const attempts = await harness().queryClient.fetchQuery(
      webhookDeliveryAttemptsQuery(endpoint.id, deliveryId),
    );
    expect(attempts.data.map((attempt) => attempt.statusCode)).toEqual([503, null]);
  });

  it("sends a delivery again and refreshes that endpoint's log only", async () => {
    const { endpoint, deliveryId } = await endpointWithDelivery();
    const pageKey = webhookDeliveriesQuery(endpoint.id, 1).queryKey;
    const attemptsKey = webhookKeys.attempts(endpoint.id, deliveryId);
    harness().prime(pageKey, attemptsKey, webhookKeys.list(), webhookKeys.deliveries('other'));
    const resent = await harness().run(
      harness().hook(() => useResendDelivery(endpoint.id)),
      deliveryId,
    );
    expect(resent).toMatchObject({ status: 'pending' });
    expect(
      harness().invalidated(pageKey, attemptsKey, webhookKeys.list(), webhookKeys.deliveries('other')),
    ).toEqual([pageKey, attemptsKey]);
  });
});
