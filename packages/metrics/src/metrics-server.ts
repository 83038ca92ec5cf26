import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { bearerTokenMatches } from './bearer-token';

export interface MetricsServerOptions {
  registry: Registry;
  /** Bearer token a scrape must carry (METRICS_TOKEN). */
  token: string;
  host: string;
  /** 0 picks a free port (tests). */
  port: number;
  /** Told when a scrape fails (a collect function threw); the scrape answers 500. */
  onError?: (error: unknown) => void;
}

export interface MetricsServer {
  /** http://host:port of the listener. */
  url: string;
  port: number;
  close(): Promise<void>;
}

const reasons: Record<number, [string, string]> = {
  401: ['UNAUTHORIZED', 'Unauthorized'],
  404: ['ROUTE_NOT_FOUND', 'Not Found'],
  405: ['METHOD_NOT_ALLOWED', 'Method Not Allowed'],
  500: ['INTERNAL_ERROR', 'Internal Server Error'],
};

/** The API's error shape, so a scraper's failures read the same from both apps. */
function sendError(response: ServerResponse, status: number, message: string, headers = {}): void {
  const [code, error] = reasons[status] ?? ['ERROR', 'Error'];
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  response.end(JSON.stringify({ statusCode: status, code, error, message }));
}

async function answer(request: IncomingMessage, response: ServerResponse, options: MetricsServerOptions) {
  const path = (request.url ?? '/').split('?')[0];
  if (path !== '/metrics') return sendError(response, 404, `Route ${request.method} ${path} not found`);
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return sendError(response, 405, 'Only GET is served here', { allow: 'GET, HEAD' });
  }
  if (!bearerTokenMatches(request.headers.authorization, options.token)) {
    return sendError(response, 401, 'A valid metrics token is required', { 'www-authenticate': 'Bearer' });
  }
  try {
    const body = await options.registry.metrics();
    response.writeHead(200, { 'content-type': options.registry.contentType, 'cache-control': 'no-store' });
    response.end(request.method === 'HEAD' ? undefined : body);
  } catch (error) {
    options.onError?.(error);
    sendError(response, 500, 'Could not collect the metrics');
  }
}

/**
 * A minimal HTTP listener that serves `GET /metrics` (Prometheus text) to holders of the token, for
 * processes without an HTTP server of their own (the worker). Every wait is bounded: slow clients are cut
 * after a few seconds, and close() drops open connections.
 */
export async function startMetricsServer(options: MetricsServerOptions): Promise<MetricsServer> {
  const server = createServer((request, response) => void answer(request, response, options));
  server.headersTimeout = 5_000;
  server.requestTimeout = 10_000;
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port, family } = server.address() as AddressInfo;
  const host = family === 'IPv6' ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
