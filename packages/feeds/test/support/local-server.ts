import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { feedFixturesDir, readFeedFixture } from '@newsroom/test-support/feed-server';

/** The shared real-world feed fixtures (found as the rest of the suite finds them: feedFixturesDir). */
export const FIXTURES_DIR = feedFixturesDir();

export const readFixture = readFeedFixture;

export interface ReceivedRequest {
  url: string;
  headers: IncomingHttpHeaders;
}

export interface LocalServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  port: number;
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 (never any other interface) that records what it received. */
export async function startLocalServer(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<LocalServer> {
  const requests: ReceivedRequest[] = [];
  const server = createServer((request, response) => {
    requests.push({ url: request.url ?? '', headers: request.headers });
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        // Slow-drip handlers keep sockets open; do not wait for them.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Allows exactly 127.0.0.1, so tests can reach their own server while everything else stays refused. */
export const onlyLoopbackServer = (address: string): boolean => address === '127.0.0.1';
