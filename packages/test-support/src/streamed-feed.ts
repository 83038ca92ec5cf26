import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An RSS 2.0 document of `items` items with a body of about `bodyBytes` bytes each (ASCII), its
 * channel title and link first, as news feeds have them.
 */
export function generatedFeed(items: number, bodyBytes: number, title = 'Generated feed'): Buffer {
  const paragraph = '<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.</p>';
  const body = paragraph.repeat(Math.max(1, Math.ceil(bodyBytes / paragraph.length)));
  const parts = [
    `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>${title}</title>`,
    '<link>https://generated.example/</link>',
  ];
  for (let i = 1; i <= items; i++) {
    parts.push(
      `<item><title>Story ${i}</title><link>https://generated.example/story/${i}</link>`,
      `<guid>story-${i}</guid><pubDate>Mon, 23 Nov 2026 10:00:00 GMT</pubDate>`,
      `<description><![CDATA[${body}]]></description></item>`,
    );
  }
  parts.push('</channel></rss>');
  return Buffer.from(parts.join(''));
}

/** What a streamed response went through, seen from the server. */
export interface StreamedResponse {
  /** Bytes handed to the socket (the kernel may still hold some of them). */
  bytesSent: number;
  /** The whole body was written. */
  finished: boolean;
  /** Resolves when the connection closes, finished or not. */
  closed: Promise<void>;
}

export interface StreamingFeedServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  url(path: string): string;
  /** One entry per request, in arrival order. */
  responses: StreamedResponse[];
  /** Resolves once `count` requests have arrived. */
  received(count: number): Promise<void>;
  /** Requests held until release() (none while `hold` was not set). */
  release(): void;
  close(): Promise<void>;
}

/**
 * A server on 127.0.0.1 that writes `body` 64 KiB at a time, waiting for the socket to drain
 * between writes, and records how much it sent before the client stopped reading. With `hold`,
 * every request waits for release() before its body is sent.
 */
export async function startStreamingFeedServer(
  body: Buffer,
  options: {
    /** Hold each request until release(): before its body (true) or after this many bytes of it. */
    hold?: boolean | number;
    contentType?: string;
  } = {},
): Promise<StreamingFeedServer> {
  const responses: StreamedResponse[] = [];
  let released = !options.hold;
  const waiting: (() => void)[] = [];
  const arrivals: { count: number; done: () => void }[] = [];
  const server = createServer((_request, response) => {
    let markClosed: () => void = () => undefined;
    const record: StreamedResponse = {
      bytesSent: 0,
      finished: false,
      closed: new Promise((done) => {
        markClosed = done;
      }),
    };
    responses.push(record);
    for (const arrival of arrivals.filter((a) => a.count <= responses.length)) arrival.done();
    response.on('close', () => markClosed());
    const holdAt = released ? body.length : typeof options.hold === 'number' ? options.hold : 0;
    const resume = streamBody(response, body, record, options.contentType, holdAt);
    if (resume) waiting.push(resume);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    url: (path) => `${origin}${path}`,
    responses,
    received: (count) =>
      responses.length >= count
        ? Promise.resolve()
        : new Promise((done) => {
            arrivals.push({ count, done });
          }),
    release() {
      released = true;
      for (const send of waiting.splice(0)) send();
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/**
 * Writes the headers and the body up to `holdAt` bytes; returns the function that writes the rest
 * when the body was held there (undefined when it was written whole).
 */
function streamBody(
  response: ServerResponse,
  body: Buffer,
  record: StreamedResponse,
  contentType = 'application/rss+xml; charset=utf-8',
  holdAt = body.length,
): (() => void) | undefined {
  const piece = 64 * 1024;
  let offset = 0;
  let limit = holdAt;
  response.writeHead(200, { 'content-type': contentType, 'content-length': String(body.length) });
  const writeMore = () => {
    while (offset < body.length) {
      if (response.destroyed) return;
      if (offset >= limit) return;
      const chunk = body.subarray(offset, Math.min(offset + piece, limit));
      offset += chunk.length;
      record.bytesSent += chunk.length;
      if (!response.write(chunk)) {
        response.once('drain', writeMore);
        return;
      }
    }
    response.end();
    record.finished = true;
  };
  writeMore();
  if (limit >= body.length) return undefined;
  return () => {
    limit = body.length;
    writeMore();
  };
}
