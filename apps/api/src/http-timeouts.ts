import type { Server } from 'node:http';
import type { ApiConfig } from '@newsroom/config';
import type { FastifyHttpOptions } from 'fastify';

/**
 * Fastify's bounds on a client's connection (Node's defaults leave a slow or silent client connected for
 * minutes): receiving a whole request, silence on a connection, and an idle keep-alive.
 */
export function httpTimeoutOptions({ http }: ApiConfig): FastifyHttpOptions<Server> {
  return {
    requestTimeout: http.requestTimeoutMs,
    connectionTimeout: http.connectionTimeoutMs,
    keepAliveTimeout: http.keepAliveTimeoutMs,
    http: {
      // Node checks requestTimeout/headersTimeout on this period (30 s by default): keep it well below them.
      connectionsCheckingInterval: Math.min(1_000, http.requestTimeoutMs || 1_000),
      // Node refuses a headersTimeout above requestTimeout.
      headersTimeout: Math.min(60_000, http.requestTimeoutMs || 60_000),
    },
  };
}
