import { describe, expect, it } from 'vitest';
import { ConfigError, loadAdminCliConfig, loadApiConfig, loadWorkerConfig } from '../src';

const valid = {
  PORT: '3000',
  API_KEY: 'k'.repeat(24),
  JWT_SECRET: 's'.repeat(48),
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/newsroom',
};

describe('timeouts', () => {
  it('bounds every wait on Postgres and on HTTP clients by default', () => {
    const config = loadApiConfig(valid);
    expect(config.databaseTimeouts).toEqual({
      connectMs: 3_000,
      statementMs: 5_000,
      queryMs: 6_000,
      idleInTransactionMs: 60_000,
    });
    expect(config.http).toEqual({
      connectionTimeoutMs: 60_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 72_000,
    });
    expect(loadWorkerConfig(valid).databaseTimeouts.queryMs).toBe(6_000);
  });

  it('reads them from the environment', () => {
    const config = loadApiConfig({
      ...valid,
      DATABASE_STATEMENT_TIMEOUT_MS: '1000',
      DATABASE_QUERY_TIMEOUT_MS: '1500',
      HTTP_REQUEST_TIMEOUT_MS: '2000',
    });
    expect(config.databaseTimeouts).toMatchObject({ statementMs: 1_000, queryMs: 1_500 });
    expect(config.http.requestTimeoutMs).toBe(2_000);
  });

  it('refuses a client-side query timeout that would fire before the statement timeout', () => {
    expect(() =>
      loadApiConfig({ ...valid, DATABASE_STATEMENT_TIMEOUT_MS: '5000', DATABASE_QUERY_TIMEOUT_MS: '5000' }),
    ).toThrow(/DATABASE_QUERY_TIMEOUT_MS must be above DATABASE_STATEMENT_TIMEOUT_MS/);
    expect(() => loadApiConfig({ ...valid, DATABASE_CONNECT_TIMEOUT_MS: '0' })).toThrow(
      /DATABASE_CONNECT_TIMEOUT_MS is invalid/,
    );
  });
});

describe('SHUTDOWN_DRAIN_MS', () => {
  it('drains 5 s after SIGTERM in production, not at all elsewhere, unless set', () => {
    expect(loadApiConfig({ ...valid, NODE_ENV: 'production' }).shutdownDrainMs).toBe(5_000);
    expect(loadApiConfig(valid).shutdownDrainMs).toBe(0);
    expect(loadApiConfig({ ...valid, NODE_ENV: 'test', SHUTDOWN_DRAIN_MS: '1500' }).shutdownDrainMs).toBe(
      1_500,
    );
    expect(loadApiConfig({ ...valid, NODE_ENV: 'production', SHUTDOWN_DRAIN_MS: '0' }).shutdownDrainMs).toBe(
      0,
    );
  });

  it.each(['-1', '60001', '2s', 'soon'])('refuses %s, naming the variable', (value) => {
    expect(() => loadApiConfig({ ...valid, SHUTDOWN_DRAIN_MS: value })).toThrow(
      /SHUTDOWN_DRAIN_MS is invalid/,
    );
  });
});

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

describe('prepared statements switch', () => {
  it('is on by default, off when asked, and names a bad value', () => {
    expect(loadApiConfig(valid).databasePreparedStatements).toBe(true);
    expect(loadApiConfig({ ...valid, DATABASE_PREPARED_STATEMENTS: 'off' }).databasePreparedStatements).toBe(
      false,
    );
    expect(() => loadApiConfig({ ...valid, DATABASE_PREPARED_STATEMENTS: 'no' })).toThrow(
      /DATABASE_PREPARED_STATEMENTS is invalid/,
    );
  });
});

describe('read replica', () => {
  it('is off without DATABASE_REPLICA_URL, and bounded by default with it', () => {
    expect(loadApiConfig(valid).replica).toBeNull();
    expect(
      loadApiConfig({ ...valid, DATABASE_REPLICA_URL: 'postgres://replica:5432/newsroom' }).replica,
    ).toEqual({
      url: 'postgres://replica:5432/newsroom',
      maxLagMs: 1_000,
      probeMs: 1_000,
    });
    expect(() => loadApiConfig({ ...valid, DATABASE_REPLICA_PROBE_MS: '10' })).toThrow(
      /DATABASE_REPLICA_PROBE_MS/,
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
      shared: { maxAge: 30, sMaxAge: 3600, staleWhileRevalidate: 60 },
      responseCache: false,
      articleCacheBytes: 32 * 1024 * 1024,
      searchLanguage: 'english',
    });
  });

  it('reads the lifetimes of answers to publishable keys', () => {
    const config = loadApiConfig({
      ...valid,
      CLIENT_PUBLIC_MAX_AGE: '10',
      CLIENT_PUBLIC_S_MAXAGE: '900',
      CLIENT_PUBLIC_STALE_WHILE_REVALIDATE: '20',
    });
    expect(config.client.shared).toEqual({ maxAge: 10, sMaxAge: 900, staleWhileRevalidate: 20 });
    expect(() => loadApiConfig({ ...valid, CLIENT_PUBLIC_S_MAXAGE: '-1' })).toThrow(/CLIENT_PUBLIC_S_MAXAGE/);
  });

  it('reads the search language and refuses one that cannot be a configuration name', () => {
    expect(loadApiConfig({ ...valid, SEARCH_LANGUAGE: 'french' }).client.searchLanguage).toBe('french');
    expect(() => loadApiConfig({ ...valid, SEARCH_LANGUAGE: 'english; drop' })).toThrow(/SEARCH_LANGUAGE/);
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

describe('rate limits', () => {
  it('defaults: wrong keys, previews, /client/all and password resets limited; the other client routes not', () => {
    expect(loadApiConfig(valid).rateLimits).toEqual({
      apiKeyFailures: { max: 20, windowMs: 60_000 },
      testFeed: { max: 10, windowMs: 60_000 },
      feedUrlChanges: { max: 5, windowMs: 3_600_000 },
      passwordResetPerIp: { max: 10, windowMs: 3_600_000 },
      passwordResetPerEmail: { max: 3, windowMs: 3_600_000 },
      clientAll: { max: 10, windowMs: 60_000 },
      client: null,
    });
  });

  it('reads <count>/<window> and off', () => {
    const config = loadApiConfig({
      ...valid,
      RATE_LIMIT_CLIENT: '5000/10s',
      RATE_LIMIT_CLIENT_ALL: 'off',
      RATE_LIMIT_TEST_FEED: '3/2h',
    });
    expect(config.rateLimits).toMatchObject({
      client: { max: 5000, windowMs: 10_000 },
      clientAll: null,
      testFeed: { max: 3, windowMs: 7_200_000 },
    });
  });

  it.each(['10', '0/1m', '10/0m', '10/1d', '10 per minute', '-1/1m'])('refuses %j', (value) => {
    expect(() => loadApiConfig({ ...valid, RATE_LIMIT_CLIENT: value })).toThrow(
      /RATE_LIMIT_CLIENT is invalid/,
    );
  });
});

describe('loadWorkerConfig', () => {
  it('reads imgproxy as the API does (the webhook payloads carry the same renditions): all three or none', () => {
    const imgproxy = { IMGPROXY_URL: 'https://img.example.com', IMGPROXY_KEY: 'abcd', IMGPROXY_SALT: '0123' };
    expect(loadWorkerConfig({ DATABASE_URL: valid.DATABASE_URL, ...imgproxy }).imgproxy).toEqual({
      baseUrl: 'https://img.example.com',
      keyHex: 'abcd',
      saltHex: '0123',
    });
    expect(loadApiConfig({ ...valid, ...imgproxy }).imgproxy).toEqual(
      loadWorkerConfig({ DATABASE_URL: valid.DATABASE_URL, ...imgproxy }).imgproxy,
    );
    const { IMGPROXY_SALT: _salt, ...twoOfThree } = imgproxy;
    expect(loadWorkerConfig({ DATABASE_URL: valid.DATABASE_URL, ...twoOfThree }).imgproxy).toBeUndefined();
    expect(() => loadWorkerConfig({ DATABASE_URL: valid.DATABASE_URL, IMGPROXY_KEY: 'not hex' })).toThrow(
      ConfigError,
    );
  });

  it('reads the CDN purge providers: none by default, each only with both of its names', () => {
    const none = loadWorkerConfig({ DATABASE_URL: valid.DATABASE_URL });
    expect(none.purge).toMatchObject({
      varnishUrls: [],
      fastly: null,
      cloudflare: null,
      relayIntervalMs: 200,
    });
    const all = loadWorkerConfig({
      DATABASE_URL: valid.DATABASE_URL,
      PURGE_VARNISH_URLS: 'http://varnish-a:6081,http://varnish-b:6081',
      PURGE_FASTLY_SERVICE_ID: 'svc',
      PURGE_FASTLY_TOKEN: 'token',
      PURGE_CLOUDFLARE_ZONE_ID: 'zone',
      PURGE_CLOUDFLARE_TOKEN: 'cf',
    });
    expect(all.purge.varnishUrls).toEqual(['http://varnish-a:6081', 'http://varnish-b:6081']);
    expect(all.purge.fastly).toMatchObject({
      serviceId: 'svc',
      apiUrl: 'https://api.fastly.com',
      requestsPerSecond: 10,
    });
    expect(all.purge.cloudflare).toMatchObject({ zoneId: 'zone', requestsPerSecond: 5 });
    expect(() =>
      loadWorkerConfig({ DATABASE_URL: valid.DATABASE_URL, PURGE_FASTLY_SERVICE_ID: 'svc' }),
    ).toThrow(/PURGE_FASTLY_TOKEN/);
    expect(() =>
      loadWorkerConfig({ DATABASE_URL: valid.DATABASE_URL, PURGE_VARNISH_URLS: 'varnish:6081' }),
    ).toThrow(/PURGE_VARNISH_URLS/);
  });

  it('needs neither PORT nor API secrets', () => {
    const config = loadWorkerConfig({ DATABASE_URL: valid.DATABASE_URL });
    expect(config.import).toEqual({
      schedule: '0 * * * *',
      concurrency: 8,
      scheduleCheckMs: 30_000,
      lockMs: 30_000,
      fetchesPerHost: 2,
      fetchesPerPublisher: 1,
    });
    expect(config.feeds.userAgent).toMatch(/^NewsroomFeedFetcher\/1\.0 \(\+https:\/\//);
  });

  it('reads FEED_FETCHES_PER_HOST and FEED_USER_AGENT, and refuses a bad per-host limit', () => {
    const config = loadWorkerConfig({
      DATABASE_URL: valid.DATABASE_URL,
      FEED_FETCHES_PER_HOST: '5',
      FEED_USER_AGENT: 'ExampleNews/2.0 (+https://news.example/bot)',
    });
    expect(config.import.fetchesPerHost).toBe(5);
    expect(config.feeds.userAgent).toBe('ExampleNews/2.0 (+https://news.example/bot)');
    expect(() => loadWorkerConfig({ DATABASE_URL: valid.DATABASE_URL, FEED_FETCHES_PER_HOST: '0' })).toThrow(
      /FEED_FETCHES_PER_HOST/,
    );
  });

  it('refuses an IMPORT_SCHEDULE that is not a cron pattern, in one line', () => {
    expect(() =>
      loadWorkerConfig({ DATABASE_URL: valid.DATABASE_URL, IMPORT_SCHEDULE: 'every hour' }),
    ).toThrow(/^Invalid configuration: IMPORT_SCHEDULE is invalid: not a cron pattern/);
    expect(() =>
      loadWorkerConfig({ DATABASE_URL: valid.DATABASE_URL, IMPORT_SCHEDULE: '61 * * * *' }),
    ).toThrow(/IMPORT_SCHEDULE/);
    expect(
      loadWorkerConfig({ DATABASE_URL: valid.DATABASE_URL, IMPORT_SCHEDULE: '*/15 * * * *' }).import.schedule,
    ).toBe('*/15 * * * *');
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
      redis: { url: 'redis://127.0.0.1:6379', queuePrefix: 'newsroom' },
    });
    expect(() => loadAdminCliConfig({})).toThrow(/DATABASE_URL is required/);
  });
});

describe('Redis', () => {
  it('is one server at REDIS_URL by default, keys under QUEUE_PREFIX', () => {
    expect(loadWorkerConfig({ ...valid, QUEUE_PREFIX: 'news' }).redis).toEqual({
      url: 'redis://127.0.0.1:6379',
      clusterNodes: undefined,
      queuePrefix: 'news',
    });
  });

  it('is a cluster with REDIS_CLUSTER_NODES, every key under one hash tag', () => {
    const env = { ...valid, REDIS_CLUSTER_NODES: 'redis://10.0.0.1:7000,rediss://:secret@10.0.0.2:7001' };
    for (const config of [loadApiConfig(env), loadWorkerConfig(env), loadAdminCliConfig(env)]) {
      expect(config.redis.clusterNodes).toEqual(['redis://10.0.0.1:7000', 'rediss://:secret@10.0.0.2:7001']);
      expect(config.redis.queuePrefix).toBe('{newsroom}');
    }
  });

  it('refuses a cluster node that is not redis://host:port', () => {
    for (const nodes of ['10.0.0.1:7000', 'redis://10.0.0.1', 'redis://a:1,,redis://b:2', 'http://a:1']) {
      expect(() => loadWorkerConfig({ ...valid, REDIS_CLUSTER_NODES: nodes }), nodes).toThrow(
        /REDIS_CLUSTER_NODES/,
      );
    }
  });
});
