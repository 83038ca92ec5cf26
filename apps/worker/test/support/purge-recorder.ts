import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A purge request as a CDN API received it. */
export interface RecordedPurge {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/**
 * A loopback HTTP server standing in for the purge APIs of Fastly and Cloudflare and for a Varnish's purge
 * listener: it records every request and answers 200, or what `respond` says for it.
 */
export async function startPurgeRecorder() {
  const requests: RecordedPurge[] = [];
  let respond: (request: RecordedPurge) => { status: number; headers?: Record<string, string> } = () => ({
    status: 200,
  });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(recorded);
      const { status, headers = {} } = respond(recorded);
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify({ status: status < 300 ? 'ok' : 'error' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    respondWith(next: typeof respond) {
      respond = next;
    },
    clear() {
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The surrogate keys a recorded request purges, whatever the provider's syntax. */
export function keysOf(request: RecordedPurge): string[] {
  if (request.headers['xkey-purge']) return String(request.headers['xkey-purge']).split(' ');
  if (request.headers['surrogate-key']) return String(request.headers['surrogate-key']).split(' ');
  return (JSON.parse(request.body) as { tags: string[] }).tags;
}

/** Which provider a recorded request was meant for, by its shape. */
export function providerOf(request: RecordedPurge): 'varnish' | 'fastly' | 'cloudflare' {
  if (request.method === 'PURGE') return 'varnish';
  return request.path.includes('/purge_cache') ? 'cloudflare' : 'fastly';
}
