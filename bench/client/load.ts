import autocannon from 'autocannon';

/**
 * What Node's fetch (undici) sends to an https URL, as child sites reach the API (undici's
 * lib/web/fetch/index.js; over plain http it sends `gzip, deflate`). The API answers either with gzip.
 */
export const undiciAcceptEncoding = 'br, gzip, deflate';

export interface LoadResult {
  name: string;
  requestsPerSecond: number;
  /** Responses received in the run. */
  requests: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

export interface LoadOptions {
  name: string;
  url: string;
  /** Paths to request in turn (one path: the same request every time). */
  paths: string[];
  headers?: Record<string, string>;
  seconds: number;
  connections: number;
}

/** One autocannon run (programmatic API): `connections` keep-alive connections for `seconds`. */
export async function measure(options: LoadOptions): Promise<LoadResult> {
  let turn = 0;
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.seconds,
    headers: options.headers ?? {},
    requests: [
      {
        method: 'GET',
        setupRequest: (request) => {
          const path = options.paths[turn++ % options.paths.length] as string;
          return { ...request, path };
        },
      },
    ],
  });
  return {
    name: options.name,
    requestsPerSecond: result.requests.average,
    requests: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}
