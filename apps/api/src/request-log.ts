import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import { writeAccessLine } from './access-line';
import { loggableUrl } from './logger';

export type RequestLogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** pino's level numbers: a line is written when its level's number is at least the logger's. */
const levelNumbers: Record<string, number> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
  silent: Number.POSITIVE_INFINITY,
};

/** Whether `log` (a request's child logger, with its route's `logLevel`) writes lines of `level`. */
const writes = (log: FastifyRequest['log'], level: number) => (levelNumbers[log.level] ?? 0) <= level;

/**
 * Fastify's per-request log lines, made cheap: instead of two lines per request (arrival, with every request
 * header, and completion), one line when the response is sent, at REQUEST_LOG_LEVEL (default info): method,
 * URL (secrets masked, see logger.ts), status, time to answer in ms and client address; the request id is its
 * `reqId`. The arrival line is written at `debug` (LOG_LEVEL=debug shows requests that never complete).
 * The completion line is put together directly (access-line.ts): the bytes pino would write, cheaper.
 * A route's own `logLevel` (the probes: warn) still silences both. What the default leaves out:
 * docs/operations.md#request-logs.
 */
export class OneLineRequestLog extends LogController {
  private readonly level: { name: Exclude<RequestLogLevel, 'silent'>; number: number } | null;
  private readonly levelNumber: number;

  constructor(level: RequestLogLevel) {
    super();
    this.levelNumber = levelNumbers[level] as number;
    this.level = level === 'silent' ? null : { name: level, number: this.levelNumber };
  }

  override incomingRequest(request: FastifyRequest): void {
    // Checked first, so a request whose line would be dropped builds nothing.
    if (!writes(request.log, levelNumbers.debug as number)) return;
    request.log.debug({ method: request.method, url: loggableUrl(request.url) }, 'incoming request');
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const fields = () => ({
      method: request.method,
      url: loggableUrl(request.url),
      statusCode: reply.statusCode,
      responseTime: Math.round(reply.elapsedTime * 10) / 10,
      remoteAddress: request.ip,
    });
    // A response that failed while being sent (a stream cut short) is always an error line.
    if (error) {
      reply.log.error({ ...fields(), err: error }, 'request errored');
      return;
    }
    if (this.level === null || !writes(reply.log, this.levelNumber)) return;
    writeAccessLine(reply.log, this.level, fields());
  }
}
