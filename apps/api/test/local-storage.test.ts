import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chooseStorage, startLocalStorage, storageEnvironment } from '../scripts/local-storage';
import { createUploadSigner } from '../src/storage/upload-signer';
import { testConfig } from './support/test-app';

// What `pnpm start` does about uploads (scripts/start.ts): real storage when STORAGE_* is set, else outside
// production an embedded S3-compatible store on loopback that a browser page of the dashboard can PUT to.

const directory = mkdtempSync(join(tmpdir(), 'newsroom-local-storage-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
const dashboardOrigin = 'http://127.0.0.1:3917';

describe("the start script's storage choice", () => {
  const storage = {
    STORAGE_ACCESS_KEY_ID: 'key',
    STORAGE_SECRET_ACCESS_KEY: 'secret',
    STORAGE_REGION: 'eu-west-1',
    STORAGE_BUCKET: 'media',
  };

  it.each([
    ['configured storage in development', { NODE_ENV: 'development', ...storage }, 'configured'],
    ['configured storage in production', { NODE_ENV: 'production', ...storage }, 'configured'],
    ['no STORAGE_* in development', { NODE_ENV: 'development' }, 'embedded'],
    ['no STORAGE_* in production (sign-storage answers 503)', { NODE_ENV: 'production' }, 'none'],
  ])('%s', (_name, env, choice) => {
    expect(chooseStorage(testConfig(env))).toBe(choice);
  });
});

describe('the embedded store', () => {
  it('listens on loopback only and takes a signed browser upload from the dashboard origin', async () => {
    const local = await startLocalStorage({ directory, port: 0, dashboardOrigins: [dashboardOrigin] });
    try {
      expect(local.address).toBe('127.0.0.1');
      expect(local.storage.endpoint).toBe(`http://127.0.0.1:${local.port}`);

      // The preflight the browser sends before a cross-origin PUT with a Content-Type (s3rver answers a
      // matched preflight with `*`); another site's page is refused.
      const preflight = (origin: string) =>
        fetch(`${local.storage.endpoint}/${local.storage.bucket}/uploads/x.png`, {
          method: 'OPTIONS',
          headers: {
            origin,
            'access-control-request-method': 'PUT',
            'access-control-request-headers': 'content-type',
          },
        });
      const allowed = await preflight(dashboardOrigin);
      expect(allowed.status).toBe(200);
      expect(allowed.headers.get('access-control-allow-methods')).toMatch(/PUT/);
      expect((await preflight('http://127.0.0.1:4999')).status).toBe(403);

      // The API's own signer with the settings the start script hands the API process.
      const env = storageEnvironment(local.storage);
      const signer = createUploadSigner(testConfig(env).storage ?? expect.fail('storage settings'));
      const { signedRequest, url } = await signer.signUpload('image/png');
      const bytes = Buffer.from('\x89PNG local upload');
      const put = await fetch(signedRequest, {
        method: 'PUT',
        headers: { 'content-type': 'image/png', origin: dashboardOrigin },
        body: bytes,
      });
      expect(put.status).toBe(200);
      expect(put.headers.get('access-control-allow-origin')).toBe(dashboardOrigin);
      const stored = await fetch(url);
      expect(stored.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await stored.arrayBuffer())).toEqual(bytes);
    } finally {
      await local.close();
    }
  });

  it('keeps uploaded files across restarts in its folder', async () => {
    const first = await startLocalStorage({ directory, port: 0, dashboardOrigins: [dashboardOrigin] });
    const signer = createUploadSigner(first.storage);
    const { signedRequest, url } = await signer.signUpload('image/webp');
    const put = await fetch(signedRequest, {
      method: 'PUT',
      headers: { 'content-type': 'image/webp' },
      body: 'w',
    });
    expect(put.status).toBe(200);
    const path = new URL(url).pathname;
    await first.close();

    const second = await startLocalStorage({ directory, port: 0, dashboardOrigins: [dashboardOrigin] });
    try {
      expect((await fetch(`${second.storage.endpoint}${path}`)).status).toBe(200);
    } finally {
      await second.close();
    }
  });
});
