import { unescape as percentDecode } from 'node:querystring';
import type { FastifyServerOptions } from 'fastify';

/** Where log lines go instead of stdout: pino-pretty in development, a capture in tests. */
export interface DestinationStream {
  write(line: string): void;
}

/** Query parameter that carries a client key; compared after decoding, as the query parser decodes it. */
const secretQueryParam = 'api_key';
/** A site key anywhere in a URL (say, pasted into a path by mistake). */
const siteKeyPattern = /nsk_[A-Za-z0-9_-]{20,}/g;

/** A parameter name as the query parser would read it, however many times it was percent-encoded. */
function decodedName(raw: string): string {
  let name = raw.replace(/\+/g, ' ');
  for (let round = 0; round < 4; round++) {
    const decoded = percentDecode(name);
    if (decoded === name) break;
    name = decoded;
  }
  return name.trim().toLowerCase();
}

/**
 * The URL as it may be logged: the value of every `api_key` parameter masked, however its name is
 * encoded (`api%5Fkey`, `API_KEY`, `%2561pi_key`, ...), and any site-key-shaped text masked too.
 */
export function loggableUrl(url: string): string {
  const query = url.indexOf('?');
  // Most URLs have neither a query nor a key: nothing to scan for (one line per request).
  if (query === -1 && !url.includes('nsk_')) return url;
  const masked =
    query === -1
      ? url
      : `${url.slice(0, query + 1)}${url
          .slice(query + 1)
          .split('&')
          .map((param) => {
            const equals = param.indexOf('=');
            const name = equals === -1 ? param : param.slice(0, equals);
            return decodedName(name) === secretQueryParam ? `${name}=[redacted]` : param;
          })
          .join('&')}`;
  return masked.replace(siteKeyPattern, 'nsk_[redacted]');
}

/** A page URL in Referer can carry an api_key too. */
function withoutSecretsInReferer<H extends { referer?: string | undefined }>(headers: H): H {
  return headers.referer === undefined ? headers : { ...headers, referer: loggableUrl(headers.referer) };
}

/**
 * Pino options of the API: secrets in headers and URLs never reach the log; the request id is every
 * request line's `reqId` (Fastify's child logger). `stream` replaces stdout (development: pino-pretty;
 * tests: a capture).
 */
export function loggerOptions(level: string, stream?: DestinationStream): FastifyServerOptions['logger'] {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie'],
      censor: '[redacted]',
    },
    serializers: {
      req(request) {
        return {
          method: request.method,
          url: loggableUrl(request.url),
          remoteAddress: request.ip,
          headers: withoutSecretsInReferer(request.headers),
        };
      },
    },
  };
}

/**
 * Readable logs for a developer at a terminal (NODE_ENV=development and stdout a TTY): pino-pretty, loaded
 * only then. Anything else (production, containers, files, pipes) gets one JSON object per line.
 */
export async function developmentLogStream(
  env: string,
  isTty = process.stdout.isTTY === true,
): Promise<DestinationStream | undefined> {
  if (env !== 'development' || !isTty) return undefined;
  const { default: pretty } = await import('pino-pretty');
  return pretty({ translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
}
