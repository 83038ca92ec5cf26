import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * The shared real-world feed fixtures: FEED_FIXTURES_DIR, else `shared/` beside the repository
 * (CI's layout), else the team machine's /work/shared.
 */
export function feedFixturesDir(): string {
  const candidates = [
    process.env.FEED_FIXTURES_DIR,
    resolve(import.meta.dirname, '../../../../shared/fixtures/feeds'),
    '/work/shared/fixtures/feeds',
  ];
  const found = candidates.find((dir) => dir && existsSync(dir));
  if (!found)
    throw new Error(`Feed fixtures not found; set FEED_FIXTURES_DIR (tried ${candidates.join(', ')})`);
  return found;
}

export function readFeedFixture(name: string): Buffer {
  return readFileSync(resolve(feedFixturesDir(), name));
}

/** What one path of the feed server answers. */
export interface FeedRoute {
  body: string | Buffer;
  contentType?: string;
  status?: number;
  /** Enables conditional GET: If-None-Match with this value gets a 304. */
  etag?: string;
  /** Enables conditional GET: If-Modified-Since with this exact value gets a 304. */
  lastModified?: string;
  /** Compress with gzip when the client accepts it. */
  gzip?: boolean;
  headers?: Record<string, string>;
  /** Waits this long before answering (a slow server). */
  delayMs?: number;
}

export interface ReceivedFeedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  /** The status answered (0 while a slow route has not answered yet). */
  status: number;
  /** Date.now() when the request arrived. */
  at: number;
}

export interface FeedServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  url(path: string): string;
  /** Sets (or replaces) what a path answers; a function gets the 1-based number of the request to the path. */
  route(path: string, route: FeedRoute | ((requestNumber: number) => FeedRoute)): void;
  requests: ReceivedFeedRequest[];
  requestsTo(path: string): ReceivedFeedRequest[];
  close(): Promise<void>;
}

/**
 * A feed server on 127.0.0.1 (never another interface) for tests and the benchmark: serves routes
 * set with route(), answers conditional GETs with 304, gzips on request, records every request.
 */
export async function startFeedServer(routes: Record<string, FeedRoute> = {}): Promise<FeedServer> {
  const table = new Map<string, FeedRoute | ((requestNumber: number) => FeedRoute)>(Object.entries(routes));
  const counts = new Map<string, number>();
  const gzipped = new WeakMap<FeedRoute, Buffer>();
  const requests: ReceivedFeedRequest[] = [];

  const server = createServer((request, response) => {
    const at = Date.now();
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const count = (counts.get(path) ?? 0) + 1;
    counts.set(path, count);
    const entry = table.get(path);
    const route = typeof entry === 'function' ? entry(count) : entry;
    // Recorded on arrival (a slow route answers later); the status is filled in when it answers.
    const record: ReceivedFeedRequest = { path, headers: request.headers, status: 0, at };
    requests.push(record);
    const answer = (status: number, headers: Record<string, string>, body?: Buffer | string) => {
      record.status = status;
      response.writeHead(status, headers);
      response.end(body);
    };
    if (!route) return answer(404, { 'content-type': 'text/plain' }, 'not found');

    const validators: Record<string, string> = {};
    if (route.etag) validators.etag = route.etag;
    if (route.lastModified) validators['last-modified'] = route.lastModified;
    const matchesEtag = route.etag !== undefined && request.headers['if-none-match'] === route.etag;
    const matchesDate =
      route.lastModified !== undefined && request.headers['if-modified-since'] === route.lastModified;
    if (matchesEtag || (matchesDate && !request.headers['if-none-match'])) {
      return answer(304, validators);
    }

    const headers: Record<string, string> = {
      'content-type': route.contentType ?? 'application/rss+xml; charset=utf-8',
      ...validators,
      ...route.headers,
    };
    let body = typeof route.body === 'string' ? Buffer.from(route.body) : route.body;
    if (route.gzip && /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) {
      let compressed = gzipped.get(route);
      if (!compressed) {
        compressed = gzipSync(body);
        gzipped.set(route, compressed);
      }
      body = compressed;
      headers['content-encoding'] = 'gzip';
    }
    headers['content-length'] = String(body.length);
    const send = () => answer(route.status ?? 200, headers, body);
    if (route.delayMs) setTimeout(send, route.delayMs);
    else send();
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  return {
    origin,
    url: (path) => `${origin}${path}`,
    route: (path, route) => void table.set(path, route),
    requests,
    requestsTo: (path) => requests.filter((r) => r.path === path),
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
