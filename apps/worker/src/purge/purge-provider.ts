import { parseRetryAfter } from '@newsroom/egress';

/**
 * One CDN's purge API behind one interface: how many surrogate keys one request may carry, how often
 * requests may go, and the request itself. A provider purges or throws a PurgeFailure.
 */
export interface PurgeProvider {
  /** Stored with each pending purge (cdn_purges.provider) and used as the metrics label. */
  readonly name: 'varnish' | 'fastly' | 'cloudflare';
  /** Keys per request at most (Fastly 256, Cloudflare 100, Varnish: what fits its 8 KB header limit). */
  readonly maxKeysPerRequest: number;
  /** Requests per second at most (null: unlimited); the sender spaces its requests accordingly. */
  readonly requestsPerSecond: number | null;
  purge(keys: readonly string[]): Promise<void>;
}

/** A purge request that did not succeed; `retryAfterMs` when the CDN said when to come back (429, 503). */
export class PurgeFailure extends Error {
  constructor(
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'PurgeFailure';
  }
}

/** Sends one purge request, bounded by `timeoutMs`; any status but 2xx is a PurgeFailure. */
export async function sendPurgeRequest(
  provider: string,
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
  timeoutMs: number,
): Promise<void> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    throw new PurgeFailure(`${provider} purge failed: ${(error as Error).message}`);
  }
  // The body is small (a JSON status); read it so the connection returns to the pool.
  const text = await response.text().catch(() => '');
  if (response.status < 200 || response.status > 299) {
    throw new PurgeFailure(
      `${provider} purge answered ${response.status}${text ? `: ${text.slice(0, 200)}` : ''}`,
      parseRetryAfter(response.headers.get('retry-after')),
    );
  }
}
