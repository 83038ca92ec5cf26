import { describe, expect, it } from 'vitest';
import { ConfigError, loadAdminCliConfig, loadApiConfig, loadWorkerConfig } from '../src';

const valid = {
  PORT: '3000',
  API_KEY: 'k'.repeat(24),
  JWT_SECRET: 's'.repeat(48),
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/newsroom',
};

describe('loadApiConfig', () => {
  it('reads a minimal environment with defaults', () => {
    const config = loadApiConfig(valid);
    expect(config).toMatchObject({
      env: 'development',
      port: 3000,
      host: '127.0.0.1',
      jwt: { expiresIn: '12h' },
      redis: { url: 'redis://127.0.0.1:6379', queuePrefix: 'newsroom' },
      storage: undefined,
      admin: undefined,
      feeds: { allowPrivateAddresses: false },
      databasePoolSize: 10,
      client: { cacheMaxAge: 60, staleWhileRevalidate: 300, responseCache: true },
    });
  });

  it.each(['PORT', 'API_KEY', 'JWT_SECRET', 'DATABASE_URL'])('names a missing %s', (name) => {
    const env = { ...valid, [name]: undefined };
    expect(() => loadApiConfig(env)).toThrow(new RegExp(`^Invalid configuration: ${name} is required`));
  });

  it('reads dashboard session lifetimes and the dashboard folder', () => {
    expect(loadApiConfig(valid)).toMatchObject({
      session: { idleMs: 2 * 3_600_000, maxAgeMs: 12 * 3_600_000 },
      dashboardDist: expect.stringMatching(/apps\/dashboard\/dist$/),
    });
    const custom = loadApiConfig({ ...valid, SESSION_IDLE_TIMEOUT: '30m', SESSION_MAX_AGE: '7d' });
    expect(custom.session).toEqual({ idleMs: 30 * 60_000, maxAgeMs: 7 * 86_400_000 });
    expect(() => loadApiConfig({ ...valid, SESSION_MAX_AGE: '12' })).toThrow(/SESSION_MAX_AGE is invalid/);
    expect(() => loadApiConfig({ ...valid, SESSION_IDLE_TIMEOUT: '13h' })).toThrow(
      /SESSION_IDLE_TIMEOUT must not be longer than SESSION_MAX_AGE/,
    );
  });

  it('treats an empty value as missing', () => {
    expect(() => loadApiConfig({ ...valid, API_KEY: '  ' })).toThrow('API_KEY is required');
  });

  it('names a malformed PORT', () => {
    expect(() => loadApiConfig({ ...valid, PORT: 'eighty' })).toThrow(/PORT is invalid/);
    expect(() => loadApiConfig({ ...valid, PORT: '70000' })).toThrow(/PORT is invalid/);
  });

  it('never puts a secret value in the message', () => {
    const shortSecret = 'hunter2-secret';
    try {
      loadApiConfig({ ...valid, JWT_SECRET: shortSecret });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toContain('JWT_SECRET');
      expect((error as Error).message).not.toContain(shortSecret);
    }
  });

  it('requires the storage variables together', () => {
    expect(() => loadApiConfig({ ...valid, STORAGE_BUCKET: 'b' })).toThrow(
      /STORAGE_ACCESS_KEY_ID is required/,
    );
    const config = loadApiConfig({
      ...valid,
      STORAGE_ACCESS_KEY_ID: 'id',
      STORAGE_SECRET_ACCESS_KEY: 'secret',
      STORAGE_REGION: 'us-east-1',
      STORAGE_BUCKET: 'media',
      STORAGE_ENDPOINT: 'http://127.0.0.1:9000',
    });
    expect(config.storage).toMatchObject({ bucket: 'media', endpoint: 'http://127.0.0.1:9000' });
  });

  it('requires ADMIN_EMAIL and ADMIN_PASSWORD together', () => {
    expect(() => loadApiConfig({ ...valid, ADMIN_EMAIL: 'a@b.c' })).toThrow(/ADMIN_PASSWORD/);
  });

  it('hashes passwords at cost 12 by default, 10 under test, and refuses less than 10', () => {
    expect(loadApiConfig(valid).bcryptCost).toBe(12);
    expect(loadApiConfig({ ...valid, NODE_ENV: 'production' }).bcryptCost).toBe(12);
    expect(loadApiConfig({ ...valid, NODE_ENV: 'test' }).bcryptCost).toBe(10);
    expect(loadApiConfig({ ...valid, BCRYPT_COST: '13' }).bcryptCost).toBe(13);
    expect(() => loadApiConfig({ ...valid, BCRYPT_COST: '8' })).toThrow(/BCRYPT_COST is invalid/);
  });

  it('trusts no proxy unless told which', () => {
    expect(loadApiConfig(valid).trustProxy).toBe(false);
    expect(loadApiConfig({ ...valid, TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadApiConfig({ ...valid, TRUST_PROXY: '10.0.0.0/8,127.0.0.1' }).trustProxy).toBe(
      '10.0.0.0/8,127.0.0.1',
    );
    expect(() => loadApiConfig({ ...valid, TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY/);
  });

  it('reads the private-address switch', () => {
    expect(
      loadApiConfig({ ...valid, FEED_ALLOW_PRIVATE_ADDRESSES: 'true' }).feeds.allowPrivateAddresses,
    ).toBe(true);
    expect(() => loadApiConfig({ ...valid, FEED_ALLOW_PRIVATE_ADDRESSES: 'maybe' })).toThrow(
      /FEED_ALLOW_PRIVATE_ADDRESSES/,
    );
  });
});

describe('client cache settings', () => {
  it('reads the client cache switch and HTTP cache lifetimes', () => {
    const config = loadApiConfig({
      ...valid,
      CLIENT_CACHE: 'off',
      CLIENT_CACHE_MAX_AGE: '0',
      CLIENT_CACHE_STALE_WHILE_REVALIDATE: '30',
    });
    expect(config.client).toEqual({
      cacheMaxAge: 0,
      staleWhileRevalidate: 30,
      responseCache: false,
      articleCacheBytes: 32 * 1024 * 1024,
    });
  });

  it('reads the article JSON cache size in MiB (0: off) and names a bad one', () => {
    expect(loadApiConfig({ ...valid, CLIENT_ARTICLE_CACHE_MB: '0' }).client.articleCacheBytes).toBe(0);
    expect(loadApiConfig({ ...valid, CLIENT_ARTICLE_CACHE_MB: '8' }).client.articleCacheBytes).toBe(8 << 20);
    expect(() => loadApiConfig({ ...valid, CLIENT_ARTICLE_CACHE_MB: '-1' })).toThrow(
      /CLIENT_ARTICLE_CACHE_MB/,
    );
  });

  it('names a bad CLIENT_CACHE value', () => {
    expect(() => loadApiConfig({ ...valid, CLIENT_CACHE: 'maybe' })).toThrow(/CLIENT_CACHE is invalid/);
  });
});

describe('loadWorkerConfig', () => {
  it('needs neither PORT nor API secrets', () => {
    const config = loadWorkerConfig({ DATABASE_URL: valid.DATABASE_URL });
    expect(config.import).toEqual({ schedule: '0 * * * *', concurrency: 8 });
  });

  it('names a bad concurrency', () => {
    expect(() => loadWorkerConfig({ DATABASE_URL: valid.DATABASE_URL, WORKER_CONCURRENCY: '0' })).toThrow(
      /WORKER_CONCURRENCY/,
    );
  });
});

describe('loadAdminCliConfig', () => {
  it('needs only DATABASE_URL', () => {
    expect(loadAdminCliConfig({ DATABASE_URL: valid.DATABASE_URL })).toEqual({
      databaseUrl: valid.DATABASE_URL,
      bcryptCost: 12,
    });
    expect(() => loadAdminCliConfig({})).toThrow(/DATABASE_URL is required/);
  });
});
