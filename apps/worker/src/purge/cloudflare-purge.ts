import { type PurgeProvider, sendPurgeRequest } from './purge-provider';

/** Cloudflare takes at most 100 cache tags per purge request (every plan). */
export const cloudflareMaxTags = 100;

/**
 * Cloudflare: `POST /zones/<zone id>/purge_cache` with `{ "tags": [...] }` and a bearer token
 * (https://developers.cloudflare.com/cache/how-to/purge-cache/purge-by-tags/). Purge requests are rate limited
 * per account (Pro: 5 per second): CLOUDFLARE_REQUESTS_PER_SECOND spaces them; a 429 is retried after its
 * Retry-After.
 */
export function cloudflarePurgeProvider(
  settings: { zoneId: string; token: string; apiUrl: string; requestsPerSecond: number },
  timeoutMs: number,
): PurgeProvider {
  const url = `${settings.apiUrl.replace(/\/$/, '')}/zones/${encodeURIComponent(settings.zoneId)}/purge_cache`;
  return {
    name: 'cloudflare',
    maxKeysPerRequest: cloudflareMaxTags,
    requestsPerSecond: settings.requestsPerSecond,
    async purge(keys) {
      await sendPurgeRequest(
        'cloudflare',
        url,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${settings.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ tags: keys }),
        },
        timeoutMs,
      );
    },
  };
}
