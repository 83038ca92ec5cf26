import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  path: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

/** What the receiver answers a request with: a status, or 'hang' (never answers). */
export type ReceiverAnswer =
  | number
  | 'hang'
  | { status: number; headers: Record<string, string>; body?: string };

/**
 * A loopback HTTP server standing in for a child site's webhook receiver. Each path has its own script of
 * answers (the last one repeats; 200 by default) and its own list of what arrived.
 */
export async function startWebhookReceiver() {
  const scripts = new Map<string, ReceiverAnswer[]>();
  const received = new Map<string, ReceivedWebhook[]>();
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      const list = received.get(path) ?? [];
      list.push({
        path,
        headers: request.headers as Record<string, string>,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      });
      received.set(path, list);
      const script = scripts.get(path) ?? [];
      const answer = (script.length > 1 ? script.shift() : script[0]) ?? 200;
      if (answer === 'hang') {
        hanging.add(response);
        return;
      }
      const { status, headers, body } =
        typeof answer === 'number' ? { status: answer, headers: {}, body: undefined } : answer;
      response.writeHead(status, headers).end(body ?? 'ok');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    answer(path: string, ...answers: ReceiverAnswer[]) {
      scripts.set(path, answers);
    },
    received: (path: string) => received.get(path) ?? [],
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
