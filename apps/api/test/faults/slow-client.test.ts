import { once } from 'node:events';
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { httpTimeoutOptions } from '../../src/http-timeouts';
import { createTestApp, testConfig } from '../support/test-app';

// A client that declares a body and never finishes sending it must not hold a connection for minutes.
const { app, close } = await createTestApp({ env: { HTTP_REQUEST_TIMEOUT_MS: '1000' } });
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as net.AddressInfo;
afterAll(close);

/** Opens a connection, sends `data`, and resolves with what came back and when the server closed it. */
async function sendAndWaitForClose(data: string, giveUpMs: number) {
  const socket = net.connect({ port, host: '127.0.0.1' });
  await once(socket, 'connect');
  const started = Date.now();
  let received = '';
  socket.on('data', (chunk) => (received += chunk));
  socket.write(data);
  const closed = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), giveUpMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
    socket.on('error', () => {});
  });
  socket.destroy();
  return { closed, ms: Date.now() - started, received };
}

describe('a request whose body never arrives', () => {
  it('is answered 408 and cut once HTTP_REQUEST_TIMEOUT_MS has passed', async () => {
    const partial =
      'POST /api/v1/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
      'Content-Length: 1000\r\n\r\n{"email":';
    const outcome = await sendAndWaitForClose(partial, 8_000);
    expect(outcome.closed).toBe(true);
    // The timeout, plus Node's check period (1 s here), plus a loaded machine.
    expect(outcome.ms).toBeLessThan(5_000);
    expect(outcome.received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('also bounds a request whose headers never end', async () => {
    const outcome = await sendAndWaitForClose('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ', 8_000);
    expect(outcome.closed).toBe(true);
    expect(outcome.ms).toBeLessThan(5_000);
  });
});

describe('the HTTP server', () => {
  it('bounds idle and silent connections by default', () => {
    expect(httpTimeoutOptions(testConfig())).toMatchObject({
      keepAliveTimeout: 72_000,
      requestTimeout: 30_000,
      connectionTimeout: 60_000,
      http: { connectionsCheckingInterval: 1_000, headersTimeout: 30_000 },
    });
  });

  it('applies the configured bounds to its server', () => {
    expect(app.server.requestTimeout).toBe(1_000);
    expect(app.server.keepAliveTimeout).toBe(72_000);
    expect(app.server.timeout).toBe(60_000);
  });
});
