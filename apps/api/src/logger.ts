import type { FastifyServerOptions } from 'fastify';

/** Query parameters that carry credentials; their values are masked in logged URLs. */
const secretQueryParams = /([?&]api_key=)[^&]*/gi;

/** Pino options: secrets in headers and in the api_key query parameter never reach the log. */
export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie'],
      censor: '[redacted]',
    },
    serializers: {
      req(request) {
        return {
          method: request.method,
          url: request.url.replace(secretQueryParams, '$1[redacted]'),
          remoteAddress: request.ip,
          headers: request.headers,
        };
      },
    },
  };
}
