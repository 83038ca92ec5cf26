import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type {
  CreatedWebhookEndpoint,
  CreateWebhookBody,
  EditWebhookBody,
  RotatedWebhookSecret,
  WebhookDelivery,
  WebhookDeliveryAttemptList,
  WebhookDeliveryPage,
  WebhookEndpoint,
  WebhookEndpointList,
} from '../../../lib/api-types';

export const webhookKeys = {
  all: ['webhooks'] as const,
  deliveries: (id: string) => ['webhook-deliveries', id] as const,
};

/** Rows per page of a delivery log. */
export const deliveriesPageSize = 20;

export const webhookListQuery = queryOptions({
  queryKey: webhookKeys.all,
  queryFn: ({ signal }) => api.get<WebhookEndpointList>('/webhooks', {}, signal),
});

export const webhookDeliveriesQuery = (id: string, page: number) =>
  queryOptions({
    queryKey: [...webhookKeys.deliveries(id), page] as const,
    queryFn: ({ signal }) =>
      api.get<WebhookDeliveryPage>(
        `/webhooks/${encodeURIComponent(id)}/deliveries`,
        { page, limit: deliveriesPageSize },
        signal,
      ),
    placeholderData: keepPreviousData,
    // While the log is open it follows the worker: new deliveries, retries, resends.
    refetchInterval: 5_000,
  });

export const webhookDeliveryAttemptsQuery = (id: string, deliveryId: string) =>
  queryOptions({
    queryKey: [...webhookKeys.deliveries(id), 'attempts', deliveryId] as const,
    queryFn: ({ signal }) =>
      api.get<WebhookDeliveryAttemptList>(
        `/webhooks/${encodeURIComponent(id)}/deliveries/${encodeURIComponent(deliveryId)}/attempts`,
        {},
        signal,
      ),
    // Follows the retries while it is open, like the log.
    refetchInterval: 5_000,
  });

const path = (id: string) => `/webhooks/${encodeURIComponent(id)}`;

function useWebhooksChanged() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: webhookKeys.all });
}

/** The answer holds the secret, this once: kept only in the mutation's state, never cached. The form shows errors. */
export function useCreateWebhook() {
  const changed = useWebhooksChanged();
  return useMutation({
    mutationFn: (body: CreateWebhookBody) => api.post<CreatedWebhookEndpoint>('/webhooks', body),
    onSuccess: changed,
    meta: { silent: true },
  });
}

export function useEditWebhook(id: string) {
  const changed = useWebhooksChanged();
  return useMutation({
    mutationFn: (body: EditWebhookBody) => api.put<WebhookEndpoint>(path(id), body),
    onSuccess: changed,
    meta: { silent: true },
  });
}

export function useDeleteWebhook() {
  const changed = useWebhooksChanged();
  return useMutation({
    mutationFn: (id: string) => api.delete(path(id)),
    onSuccess: changed,
  });
}

/** The new secret, shown once (the previous one keeps signing for 24 hours). */
export function useRotateWebhookSecret(id: string) {
  const changed = useWebhooksChanged();
  return useMutation({
    mutationFn: () => api.post<RotatedWebhookSecret>(`${path(id)}/rotate-secret`),
    onSuccess: changed,
  });
}

export function useResendDelivery(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) =>
      api.post<WebhookDelivery>(`${path(id)}/deliveries/${encodeURIComponent(deliveryId)}/resend`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(id) }),
  });
}
