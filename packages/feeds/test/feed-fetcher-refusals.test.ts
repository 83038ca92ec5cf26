import net from 'node:net';
import { fakeLookup } from '@newsroom/test-support/fake-lookup';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createFeedFetcher, FeedError, type FeedFetcher } from '../src/index';
import { type LocalServer, onlyLoopbackServer, readFixture, startLocalServer } from './support/local-server';

async function fetchError(fetcher: FeedFetcher, url: string): Promise<FeedError> {
  const error = await fetcher.fetch({ url }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(FeedError);
  return error as FeedError;
}

let server: LocalServer;
let redirectTarget = '';

beforeAll(async () => {
  server = await startLocalServer((request, response) => {
    if (request.url === '/redirect') {
      response.writeHead(302, { location: redirectTarget }).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/rss+xml' }).end(readFixture('heraldsun.rss'));
  });
});

afterAll(() => server.close());
afterEach(() => {
  vi.restoreAllMocks();
});

describe('with the default policy (allowPrivateAddresses false)', () => {
  const fetcher = createFeedFetcher();
  afterAll(() => fetcher.close());

  const literalUrls = () => [
    `http://127.0.0.1:${server.port}/feed`,
    `http://[::1]:${server.port}/feed`,
    'http://10.0.0.1/feed',
    'http://169.254.169.254/latest/meta-data/',
    'http://100.64.0.1/feed',
    'http://[fc00::1]/feed',
    `http://[::ffff:127.0.0.1]:${server.port}/feed`,
    `http://0.0.0.0:${server.port}/feed`,
    'http://2130706433/feed',
    'https://192.168.1.1/feed',
    'http://[fe80::1]/feed',
  ];

  it('refuses literal private, loopback, link-local, CGNAT, ULA, mapped and unspecified addresses before any connect', async () => {
    const connectSpy = vi.spyOn(net, 'connect');
    const createConnectionSpy = vi.spyOn(net, 'createConnection');
    for (const url of literalUrls()) {
      const error = await fetchError(fetcher, url);
      expect(error.code, url).toBe('REFUSED_ADDRESS');
      expect(error.permanent).toBe(true);
      expect(error.message).not.toMatch(/127\.0\.0\.1|10\.0\.0\.1|169\.254/);
    }
    expect(connectSpy).not.toHaveBeenCalled();
    expect(createConnectionSpy).not.toHaveBeenCalled();
    expect(server.requests).toHaveLength(0);
  });

  it('refuses http://localhost inside the DNS lookup, so the local server never sees a request', async () => {
    const error = await fetchError(fetcher, `http://localhost:${server.port}/feed`);
    expect(error.code).toBe('REFUSED_ADDRESS');
    expect(server.requests).toHaveLength(0);
  });
});

describe('host names are checked inside the lookup', () => {
  it.each([['10.0.0.1'], ['169.254.169.254'], ['100.64.0.1'], ['fc00::1'], ['::ffff:127.0.0.1']])(
    'refuses a name resolving to %s',
    async (address) => {
      const lookup = fakeLookup({ 'internal.test': [address] });
      const fetcher = createFeedFetcher({ lookup });
      try {
        const error = await fetchError(fetcher, 'http://internal.test/feed');
        expect(error.code).toBe('REFUSED_ADDRESS');
        expect(lookup.calls).toEqual(['internal.test']);
      } finally {
        await fetcher.close();
      }
    },
  );

  it('connects only to the allowed addresses of a name that also resolves to refused ones', async () => {
    const lookup = fakeLookup({ 'mixed.test': ['10.0.0.1', '127.0.0.1'] });
    const fetcher = createFeedFetcher({ lookup, isAllowedAddress: onlyLoopbackServer });
    try {
      const result = await fetcher.fetch({ url: `http://mixed.test:${server.port}/feed` });
      expect(result.notModified).toBe(false);
      expect(server.requests.at(-1)?.headers.host).toBe(`mixed.test:${server.port}`);
    } finally {
      await fetcher.close();
    }
  });
});

describe('redirects are checked on every hop', () => {
  const lookup = fakeLookup({ 'metadata.test': ['169.254.169.254'], 'loopback2.test': ['127.0.0.2'] });
  const fetcher = createFeedFetcher({ isAllowedAddress: onlyLoopbackServer, lookup });
  afterAll(() => fetcher.close());

  it('serves the allowed server itself', async () => {
    const result = await fetcher.fetch({ url: `${server.origin}/feed` });
    expect(result.notModified).toBe(false);
  });

  it.each([
    () => `http://127.0.0.2:${server.port}/feed`,
    () => 'http://169.254.169.254/latest/meta-data/',
    () => `http://[::1]:${server.port}/feed`,
    () => 'http://metadata.test/latest/meta-data/',
    () => `http://loopback2.test:${server.port}/feed`,
  ])('refuses a redirect from an allowed server to a refused address (%#)', async (target) => {
    redirectTarget = target();
    const before = server.requests.length;
    const error = await fetchError(fetcher, `${server.origin}/redirect`);
    expect(error.code).toBe('REFUSED_ADDRESS');
    expect(server.requests.length).toBe(before + 1);
  });

  it('refuses a redirect to a non-http scheme', async () => {
    redirectTarget = 'file:///etc/passwd';
    const error = await fetchError(fetcher, `${server.origin}/redirect`);
    expect(error.code).toBe('INVALID_URL');
  });
});

describe('URL validation', () => {
  const fetcher = createFeedFetcher({ allowPrivateAddresses: true });
  afterAll(() => fetcher.close());

  it.each([
    'ftp://127.0.0.1/feed.xml',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'data:text/xml,<rss/>',
    'gopher://127.0.0.1:70/',
    'not a url',
    '/relative/feed.xml',
    'http://user:secret@127.0.0.1/feed',
  ])('rejects %s as INVALID_URL', async (url) => {
    const error = await fetchError(fetcher, url);
    expect(error.code).toBe('INVALID_URL');
    expect(error.permanent).toBe(true);
  });
});

describe('allowPrivateAddresses (development and tests only)', () => {
  it('lets the fetcher reach a feed on 127.0.0.1 (and the connect spy used above does see real connects)', async () => {
    const connectSpy = vi.spyOn(net, 'connect');
    const fetcher = createFeedFetcher({ allowPrivateAddresses: true });
    try {
      const result = await fetcher.fetch({ url: `http://localhost:${server.port}/feed` });
      expect(result.notModified).toBe(false);
      expect(connectSpy).toHaveBeenCalled();
    } finally {
      await fetcher.close();
    }
  });
});
