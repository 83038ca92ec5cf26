import { afterAll, describe, expect, it } from 'vitest';
import { createUploadSigner } from '../src/storage/upload-signer';
import { createDashboardUsers } from './support/dashboard-users';
import { startLocalS3 } from './support/local-s3';
import { createTestApp } from './support/test-app';

const s3 = await startLocalS3();
// The signer's clock can be moved back: a URL signed "6 minutes ago" is expired now, with the real 300 s lifetime.
let clockOffsetMs = 0;
const signer = createUploadSigner(s3.storage, { now: () => new Date(Date.now() + clockOffsetMs) });
const testApp = await createTestApp({ storage: signer });
const { app, close } = testApp;
afterAll(async () => {
  await close();
  await s3.close();
});
const { adminToken } = await createDashboardUsers(testApp);

const sign = (payload: object) =>
  app.inject({
    method: 'POST',
    url: '/api/v1/sign-storage',
    headers: { authorization: `Bearer ${adminToken}` },
    payload,
  });
const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const upload = (signedRequest: string, contentType: string, body: Buffer = png) =>
  fetch(signedRequest, { method: 'PUT', headers: { 'content-type': contentType }, body });

describe('POST /api/v1/sign-storage', () => {
  it('returns a signed PUT URL valid 300 s with the content type signed, and the public URL', async () => {
    const response = await sign({ fileName: 'team photo.png', fileType: 'image/png' });
    expect(response.statusCode).toBe(200);
    const { signedRequest, url } = response.json();
    expect(Object.keys(response.json()).sort()).toEqual(['signedRequest', 'url']);

    const signed = new URL(signedRequest);
    expect(signed.origin).toBe(s3.endpoint);
    expect(signed.searchParams.get('X-Amz-Expires')).toBe('300');
    expect(signed.searchParams.get('X-Amz-SignedHeaders')).toBe('content-type;host');
    expect(signedRequest).not.toMatch(/checksum/i);

    const key = signed.pathname.replace(/^\/newsroom-media\//, '');
    const now = new Date();
    const month = String(now.getUTCMonth() + 1).padStart(2, '0');
    expect(key).toMatch(new RegExp(`^uploads/${now.getUTCFullYear()}/${month}/[0-9a-f-]{36}\\.png$`));
    expect(url).toBe(`${s3.endpoint}/newsroom-media/${key}`);
  });

  it('lets the client PUT the file with the URL, and serves it at the public URL', async () => {
    const { signedRequest, url } = (await sign({ fileName: 'a.png', fileType: 'image/png' })).json();
    const put = await upload(signedRequest, 'image/png');
    expect(put.status).toBe(200);

    const served = await fetch(url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer())).toEqual(png);
  });

  it('gives every upload its own key', async () => {
    const keys = await Promise.all(
      [1, 2, 3].map(async () => (await sign({ fileName: 'same.png', fileType: 'image/png' })).json().url),
    );
    expect(new Set(keys).size).toBe(3);
  });

  it('the store refuses a PUT with another Content-Type than the signed one (403)', async () => {
    const { signedRequest, url } = (await sign({ fileName: 'a.png', fileType: 'image/png' })).json();
    const put = await upload(signedRequest, 'text/html', Buffer.from('<script>alert(1)</script>'));
    expect(put.status).toBe(403);
    expect(await put.text()).toContain('SignatureDoesNotMatch');
    expect((await fetch(url)).status).toBe(404);
  });

  it('the store refuses a tampered URL (403): the test server really verifies signatures', async () => {
    const { signedRequest } = (await sign({ fileName: 'a.png', fileType: 'image/png' })).json();
    const tampered = new URL(signedRequest);
    tampered.pathname = tampered.pathname.replace(/\.png$/, '.html');
    expect((await upload(tampered.toString(), 'image/png')).status).toBe(403);
  });

  it('the store refuses the URL once its 5 minutes are over (403)', async () => {
    clockOffsetMs = -301_000;
    try {
      const { signedRequest } = (await sign({ fileName: 'late.png', fileType: 'image/png' })).json();
      expect(new URL(signedRequest).searchParams.get('X-Amz-Expires')).toBe('300');
      const put = await upload(signedRequest, 'image/png');
      expect(put.status).toBe(403);
      expect(await put.text()).toContain('Request has expired');
    } finally {
      clockOffsetMs = 0;
    }
    // Signed 4 minutes ago: still inside the lifetime.
    clockOffsetMs = -240_000;
    try {
      const { signedRequest } = (await sign({ fileName: 'late.png', fileType: 'image/png' })).json();
      expect((await upload(signedRequest, 'image/png')).status).toBe(200);
    } finally {
      clockOffsetMs = 0;
    }
  });

  it.each([
    ['image/jpeg', 'jpg'],
    ['image/png', 'png'],
    ['image/gif', 'gif'],
    ['image/webp', 'webp'],
    ['image/avif', 'avif'],
  ])('accepts %s, with the .%s extension in the key', async (fileType, extension) => {
    const response = await sign({ fileName: 'picture', fileType });
    expect(response.statusCode).toBe(200);
    expect(response.json().url).toMatch(new RegExp(`\\.${extension}$`));
  });

  it('never uses the file name in the stored path', async () => {
    const response = await sign({ fileName: '../../etc/passwd.png', fileType: 'image/png' });
    expect(response.statusCode).toBe(200);
    expect(response.json().url).not.toContain('passwd');
    expect(response.json().url).not.toContain('..');
  });

  it.each([
    ['a type outside the image allowlist', { fileName: 'a.html', fileType: 'text/html' }],
    ['SVG (scriptable)', { fileName: 'a.svg', fileType: 'image/svg+xml' }],
    ['an upper-case type', { fileName: 'a.png', fileType: 'IMAGE/PNG' }],
    ['no fileType', { fileName: 'a.png' }],
    ['no fileName', { fileType: 'image/png' }],
    ['an empty fileName', { fileName: '', fileType: 'image/png' }],
    ['a fileName over 255 characters', { fileName: `${'a'.repeat(252)}.png`, fileType: 'image/png' }],
    ['a fileName with control characters', { fileName: 'a\nb.png', fileType: 'image/png' }],
    ['an unknown property', { fileName: 'a.png', fileType: 'image/png', key: 'index.html' }],
  ])('refuses %s with 400', async (_name, payload) => {
    const response = await sign(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('VALIDATION_ERROR');
  });
});

describe('POST /api/v1/sign-storage without storage configured', () => {
  it.each(['test', 'production'])(
    'answers 503 STORAGE_NOT_CONFIGURED naming the settings (NODE_ENV=%s)',
    async (nodeEnv) => {
      const bare = await createTestApp({ env: { NODE_ENV: nodeEnv } });
      try {
        const users = await createDashboardUsers(bare);
        const response = await bare.app.inject({
          method: 'POST',
          url: '/api/v1/sign-storage',
          headers: { authorization: `Bearer ${users.adminToken}` },
          payload: { fileName: 'a.png', fileType: 'image/png' },
        });
        expect(response.statusCode).toBe(503);
        expect(response.json()).toMatchObject({
          code: 'STORAGE_NOT_CONFIGURED',
          error: 'Service Unavailable',
        });
        const { message } = response.json() as { message: string };
        for (const setting of [
          'STORAGE_ACCESS_KEY_ID',
          'STORAGE_SECRET_ACCESS_KEY',
          'STORAGE_REGION',
          'STORAGE_BUCKET',
        ]) {
          expect(message).toContain(setting);
        }
      } finally {
        await bare.close();
      }
    },
  );
});
