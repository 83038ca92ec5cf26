import type { Middleware } from 'openapi-fetch';

interface Stored {
  etag: string;
  body: ArrayBuffer;
  headers: [string, string][];
}

/**
 * Remembers the last body and ETag of each GET URL (at most `maxEntries`, least recently used dropped first),
 * sends `If-None-Match` when it has one, and turns a 304 into a 200 carrying the remembered body and headers.
 * So callers always see a full response, and an unchanged resource costs the API a cheap 304.
 */
export class EtagCache {
  private readonly entries = new Map<string, Stored>();

  constructor(private readonly maxEntries = 500) {}

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
  }

  readonly middleware: Middleware = {
    onRequest: ({ request }) => {
      if (!cacheable(request) || request.headers.has('if-none-match')) return undefined;
      const stored = this.entries.get(request.url);
      if (!stored) return undefined;
      request.headers.set('if-none-match', stored.etag);
      return request;
    },
    onResponse: async ({ request, response }) => {
      if (!cacheable(request)) return undefined;
      const stored = this.entries.get(request.url);
      if (response.status === 304 && stored) {
        this.touch(request.url, stored);
        const headers = new Headers(stored.headers);
        headers.set('x-newsroom-sdk-cache', 'revalidated');
        return new Response(stored.body.slice(0), { status: 200, statusText: 'OK', headers });
      }
      const etag = response.headers.get('etag');
      // `no-store` (a preview) is kept by nobody, this cache included.
      const noStore = /(^|,)\s*no-store\s*(,|$)/i.test(response.headers.get('cache-control') ?? '');
      if (response.status === 200 && etag && !noStore) {
        const body = await response.clone().arrayBuffer();
        this.touch(request.url, { etag, body, headers: [...response.headers] });
      }
      return undefined;
    },
  };

  private touch(url: string, stored: Stored): void {
    this.entries.delete(url);
    this.entries.set(url, stored);
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }
}

/** GETs, but not /client/all: its body is every article (up to hundreds of MB), not worth a second copy. */
function cacheable(request: Request): boolean {
  return request.method === 'GET' && !new URL(request.url).pathname.endsWith('/client/all');
}
