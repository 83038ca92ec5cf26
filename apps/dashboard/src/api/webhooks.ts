import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, dataOf } from '../lib/api-client';
import type { BodyOf, Schema } from '../lib/api-shapes';

// Webhook endpoints and their delivery logs (administrators).

export type WebhookEndpoint = Schema<'WebhookEndpoint'>;
export type WebhookEventType = WebhookEndpoint['events'][number];
export type CreatedWebhookEndpoint = Schema<'CreatedWebhookEndpoint'>;
export type CreateWebhookBody = BodyOf<'/api/v1/webhooks', 'post'>;
export type EditWebhookBody = BodyOf<'/api/v1/webhooks/{id}', 'put'>;
export type RotatedWebhookSecret = Schema<'RotatedWebhookSecret'>;
export type WebhookDelivery = Schema<'WebhookDelivery'>;
export type WebhookDeliveryPage = Schema<'WebhookDeliveryPage'>;
export type WebhookDeliveryAttemptList = Schema<'WebhookDeliveryAttemptList'>;

export const webhookKeys = {
  all: ['webhooks'] as const,
  list: () => [...webhookKeys.all, 'list'] as const,
  deliveries: (id: string) => ['webhook-deliveries', id] as const,
  deliveryPage: (id: string, page: number) => [...webhookKeys.deliveries(id), page] as const,
  attempts: (id: string, deliveryId: string) =>
    [...webhookKeys.deliveries(id), 'attempts', deliveryId] as const,
};

/** Rows per page of a delivery log. */
export const deliveriesPageSize = 20;

export const webhookListQuery = queryOptions({
  queryKey: webhookKeys.list(),
  queryFn: ({ signal }) => dataOf(api.GET('/api/v1/webhooks', { signal })),
});

export const webhookDeliveriesQuery = (id: string, page: number) =>
  queryOptions({
    queryKey: webhookKeys.deliveryPage(id, page),
    queryFn: ({ signal }) =>
      dataOf(
        api.GET('/api/v1/webhooks/{id}/deliveries', {
          params: { path: { id }, query: { page, limit: deliveriesPageSize } },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
    // While the log is open it follows the worker: new deliveries, retries, resends.
    refetchInterval: 5_000,
  });

export const webhookDeliveryAttemptsQuery = (id: string, deliveryId: string) =>
  queryOptions({
    queryKey: webhookKeys.attempts(id, deliveryId),
    queryFn: ({ signal }) =>
      dataOf(
        api.GET('/api/v1/webhooks/{id}/deliveries/{deliveryId}/attempts', {
          params: { path: { id, deliveryId } },
          signal,
        }),
      ),
    // Follows the retries while it is open, like the log.
    refetchInterval: 5_000,
  });

const byId = (id: string) => ({ params: { path: { id } } });

function useWebhooksChanged() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: webhookKeys.all });
}

/** The answer holds the secret, this once: kept only in the mutation's state, never cached. The form shows errors. */
export function useCreateWebhook() {
  const changed = useWebhooksChanged();
  return useMutation({
    mutationFn: (body: CreateWebhookBody) => dataOf(api.POST('/api/v1/webhooks', { body })),
    onSuccess: changed,
    meta: { silent: true },
  });
}

export function useEditWebhook(id: string) {
  const changed = useWebhooksChanged();
  return useMutation({
    mutationFn: (body: EditWebhookBody) => dataOf(api.PUT('/api/v1/webhooks/{id}', { ...byId(id), body })),
    onSuccess: changed,
    meta: { silent: true },
  });
}

export function useDeleteWebhook() {
  const changed = useWebhooksChanged();
  return useMutation({
    mutationFn: async (id: string) => {
      await api.DELETE('/api/v1/webhooks/{id}', byId(id));
    },
    onSuccess: changed,
  });
}

/** The new secret, shown once (the previous one keeps signing for 24 hours). */
export function useRotateWebhookSecret(id: string) {
  const changed = useWebhooksChanged();
  return useMutation({
    mutationFn: () => dataOf(api.POST('/api/v1/webhooks/{id}/rotate-secret', byId(id))),
    onSuccess: changed,
  });
}

export function useResendDelivery(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) =>
      dataOf(
        api.POST('/api/v1/webhooks/{id}/deliveries/{deliveryId}/resend', {
          params: { path: { id, deliveryId } },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(id) }),
  });
}
