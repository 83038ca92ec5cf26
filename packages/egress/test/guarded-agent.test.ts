import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { fakeLookup } from '@newsroom/test-support/fake-lookup';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { isPublicAddress } from '../src/address-policy';
import type { EgressError } from '../src/egress-error';
import { createCheckingLookup, createGuardedAgent } from '../src/guarded-agent';

// The guarded agent's own checks; the feed fetcher's tests (packages/feeds) exercise it end to end, redirects
// and the feed's error messages included.

let server: Server;
let port = 0;

beforeAll(async () => {
  server = createServer((_request, response) => response.end('reached'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => {
  vi.restoreAllMocks();
});

describe('host names are checked inside the lookup', () => {
  it('never hands a refused address to net.connect, in single or all-addresses mode', async () => {
    const checking = createCheckingLookup(
      isPublicAddress,
      fakeLookup({ 'internal.test': ['10.0.0.1', 'fc00::1'] }),
    );
    for (const all of [false, true]) {
      const [error, address] = await new Promise<[unknown, unknown]>((resolve) =>
        checking('internal.test', { all }, (err, addr) => resolve([err, addr])),
      );
      expect((error as EgressError).code).toBe('REFUSED_ADDRESS');
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
      for (const url of ['http://10.0.0.1/', 'http://[::1]/', `http://127.0.0.1:${port}/`]) {
        const error = await request(url, { dispatcher: agent }).then(
          () => undefined,
          (caught: unknown) => caught,
        );
        expect((error as EgressError).code, url).toBe('REFUSED_ADDRESS');
      }
      expect(connectSpy).not.toHaveBeenCalled();
    } finally {
      await agent.close();
    }
  });
});
