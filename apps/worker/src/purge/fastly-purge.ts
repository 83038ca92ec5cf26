import { type PurgeProvider, sendPurgeRequest } from './purge-provider';

/** Fastly's batch purge takes at most 256 surrogate keys per request. */
export const fastlyMaxKeys = 256;

/**
 * Fastly: `POST /service/<service id>/purge` with the keys space-separated in `Surrogate-Key` and the token in
 * `Fastly-Key` (https://www.fastly.com/documentation/reference/api/purging/). A hard purge (no Fastly-Soft-Purge):
 * no answer served after the purge is the old one.
 */
export function fastlyPurgeProvider(
  settings: { serviceId: string; token: string; apiUrl: string; requestsPerSecond: number },
  timeoutMs: number,
): PurgeProvider {
  const url = `${settings.apiUrl.replace(/\/$/, '')}/service/${encodeURIComponent(settings.serviceId)}/purge`;
  return {
    name: 'fastly',
    maxKeysPerRequest: fastlyMaxKeys,
    requestsPerSecond: settings.requestsPerSecond,
    async purge(keys) {
      await sendPurgeRequest(
        'fastly',
        url,
        {
          method: 'POST',
          headers: {
            'fastly-key': settings.token,
            'surrogate-key': keys.join(' '),
            accept: 'application/json',
          },
        },
        timeoutMs,
      );
    },
  };
}
