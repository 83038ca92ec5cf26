import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { errorBody } from './error-handler';

/** What the HTTP parser refuses before Fastify sees a request, by Node's error code. */
function refusalOf(code: string | undefined): [status: number, code: string, message: string] {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return [408, 'REQUEST_TIMEOUT', 'The request did not arrive in time'];
  if (code === 'HPE_HEADER_OVERFLOW') return [431, 'HEADERS_TOO_LARGE', 'The request headers are too large'];
  return [400, 'MALFORMED_REQUEST', 'The request is not valid HTTP'];
}

/**
 * The `clientErrorHandler` server option: a request the HTTP parser refuses (a NUL or newline in a
 * header, a broken request line, headers over Node's limit, a request that took too long) is answered on
 * the raw socket in the one error shape, like every other error, then the connection is closed.
 */
export function answerClientError(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message] = refusalOf(error.code);
  this.log.debug({ err: error }, 'refused by the HTTP parser');
  if (socket.writable) {
    const body = JSON.stringify(errorBody(status, code, message));
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
