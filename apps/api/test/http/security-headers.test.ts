import { afterAll, describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../../src/plugins/security-headers';
import { createTestApp, testApiKey, testConfig } from '../support/test-app';

const { app, close } = await createTestApp();
afterAll(close);

const get = (url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url, headers });
// Headers only helmet sets: their presence tells helmet ran on a route.
const helmetOnly = [
  'strict-transport-security',
  'cross-origin-opener-policy',
  'referrer-policy',
  'x-frame-options',
];

describe('browser-facing routes', () => {
  it.each(['/', '/docs', '/docs/json', '/admin/queues', '/api/v1/auth/me', '/api/v1/article'])(
    '%s carries helmet headers and the Content-Security-Policy',
    async (url) => {
      const response = await get(url);
      expect(response.statusCode).toBeLessThan(500);
      for (const header of helmetOnly) expect(response.headers[header], header).toBeDefined();
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self';");
      expect(csp).toContain("script-src-attr 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("img-src 'self' data: https:");
      expect(csp).toContain("connect-src 'self'");
    },
  );
});

describe('machine-facing routes', () => {
  it('client responses carry only the cheap static headers, on success and on refusal', async () => {
    for (const headers of [{ 'x-api-key': testApiKey }, {}] as Record<string, string>[]) {
      const response = await get('/api/v1/client/posts', headers);
      for (const header of helmetOnly) expect(response.headers[header], header).toBeUndefined();
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    }
  });

  it('health probes carry no helmet headers', async () => {
    const response = await get('/health');
    for (const header of helmetOnly) expect(response.headers[header], header).toBeUndefined();
  });
});

describe('contentSecurityPolicy', () => {
  const storageEnv = {
    STORAGE_ACCESS_KEY_ID: 'id',
    STORAGE_SECRET_ACCESS_KEY: 'secret',
    STORAGE_REGION: 'eu-west-1',
    STORAGE_BUCKET: 'images',
  };

  it("lets browsers PUT uploads to the storage endpoint and show images from the storage's public URL", () => {
    const { directives } = contentSecurityPolicy(
      testConfig({
        ...storageEnv,
        STORAGE_ENDPOINT: 'http://127.0.0.1:9000/',
        STORAGE_PUBLIC_URL: 'http://cdn.local:8080/images',
      }),
    );
    expect(directives['connect-src']).toEqual(["'self'", 'http://127.0.0.1:9000']);
    expect(directives['img-src']).toEqual(["'self'", 'data:', 'https:', 'http:', 'http://cdn.local:8080']);
  });

  it('allows http: pictures outside production only (production upgrades them to https)', () => {
    const production = contentSecurityPolicy(testConfig({ NODE_ENV: 'production' }));
    expect(production.directives['img-src']).toEqual(["'self'", 'data:', 'https:']);
    expect(production.directives).toHaveProperty('upgrade-insecure-requests');
  });

  it('names the AWS bucket host when no endpoint is set', () => {
    const { directives } = contentSecurityPolicy(testConfig(storageEnv));
    expect(directives['connect-src']).toEqual(["'self'", 'https://images.s3.eu-west-1.amazonaws.com']);
  });

  it('upgrades insecure requests in production only', () => {
    expect(contentSecurityPolicy(testConfig({ NODE_ENV: 'production' })).directives).toHaveProperty(
      'upgrade-insecure-requests',
    );
    expect(contentSecurityPolicy(testConfig()).directives).not.toHaveProperty('upgrade-insecure-requests');
  });
});
