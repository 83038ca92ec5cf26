import type { LookupAddress } from 'node:dns';
import net, { type LookupFunction } from 'node:net';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { isPublicAddress } from '../src/address-policy';
import { createCheckingLookup, createGuardedAgent } from '../src/guarded-agent';
import { createFeedFetcher, FeedError, type FeedFetcher } from '../src/index';
import { type LocalServer, onlyLoopbackServer, readFixture, startLocalServer } from './support/local-server';

/** A resolver that never touches real DNS: every name maps to the given addresses. */
function fakeLookup(table: Record<string, string[]>): LookupFunction & { calls: string[] } {
  const calls: string[] = [];
  const lookup = ((hostname, _options, callback) => {
    calls.push(hostname);
    const addresses = table[hostname];
    if (!addresses) {
      callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
      return;
    }
    const all: LookupAddress[] = addresses.map((address) => ({ address, family: net.isIP(address) }));
    callback(null, all);
  }) as LookupFunction & { calls: string[] };
  lookup.calls = calls;
  return lookup;
}

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

  it('never hands a refused address to net.connect, in single or all-addresses mode', async () => {
    const checking = createCheckingLookup(
      isPublicAddress,
      fakeLookup({ 'internal.test': ['10.0.0.1', 'fc00::1'] }),
    );
    for (const all of [false, true]) {
      const [error, address] = await new Promise<[unknown, unknown]>((resolve) =>
        checking('internal.test', { all }, (err, addr) => resolve([err, addr])),
      );
      expect((error as FeedError).code).toBe('REFUSED_ADDRESS');
      expect(address).toBe('');
    }
  });

  it('passes on only the allowed addresses', async () => {
    const checking = createCheckingLookup(
      isPublicAddress,
      fakeLookup({ 'mixed.test': ['10.0.0.1', '8.8.8.8'] }),
    );
    const single = await new Promise<unknown[]>((resolve) =>
      checking('mixed.test', { all: false }, (...args) => resolve(args)),
    );
    expect(single).toEqual([null, '8.8.8.8', 4]);
    const all = await new Promise<unknown[]>((resolve) =>
      checking('mixed.test', { all: true }, (...args) => resolve(args)),
    );
    expect(all).toEqual([null, [{ address: '8.8.8.8', family: 4 }]]);
  });

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

describe('the guarded agent on its own', () => {
  it('refuses literal addresses in the connector too, for callers that skip the fetcher', async () => {
    const connectSpy = vi.spyOn(net, 'connect');
    const agent = createGuardedAgent({
      isAllowedAddress: isPublicAddress,
      connectTimeoutMs: 1000,
      maxResponseBytes: 1024,
    });
    try {
      for (const url of ['http://10.0.0.1/', 'http://[::1]/', `http://127.0.0.1:${server.port}/`]) {
        const error = await request(url, { dispatcher: agent }).then(
          () => undefined,
          (caught: unknown) => caught,
        );
        expect((error as FeedError).code, url).toBe('REFUSED_ADDRESS');
      }
      expect(connectSpy).not.toHaveBeenCalled();
    } finally {
      await agent.close();
    }
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
