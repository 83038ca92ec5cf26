import { afterAll, describe, expect, it } from 'vitest';
import { insertArticle, insertSite, issueSiteKey } from '../support/content-fixtures';
import { insertAdmin, insertPublisher } from '../support/dashboard-accounts';
import { createTestApp, testApiKey } from '../support/test-app';

const { app, db, close } = await createTestApp();
afterAll(close);

const siteA = await insertSite(db, 'alpha');
const siteB = await insertSite(db, 'beta');
await insertArticle(db, { slug: 'on-alpha', siteIds: [siteA] });
await insertArticle(db, { slug: 'on-beta', siteIds: [siteB] });
const alphaKey = await issueSiteKey(db, siteA);

const { token: adminToken } = await insertAdmin(app, db);
const { token: publisherToken } = await insertPublisher(app, db);

const slugsOf = (body: { data: { slug: string }[] }) => body.data.map((a) => a.slug).sort();
const getPosts = (headers: Record<string, string> = {}, query = '') =>
  app.inject({ method: 'GET', url: `/api/v1/client/posts${query}`, headers });

describe('client key authentication', () => {
  it('accepts the network key in the x-api-key header and sees every site', async () => {
    const response = await getPosts({ 'x-api-key': testApiKey });
    expect(response.statusCode).toBe(200);
    expect(slugsOf(response.json())).toEqual(['on-alpha', 'on-beta']);
  });

  it('accepts the key in the api_key query parameter', async () => {
    const response = await getPosts({}, `?api_key=${encodeURIComponent(alphaKey.key)}`);
    expect(response.statusCode).toBe(200);
    expect(slugsOf(response.json())).toEqual(['on-alpha']);
  });

  it('lets the header win over the query parameter', async () => {
    const headerSite = await getPosts({ 'x-api-key': alphaKey.key }, `?api_key=${testApiKey}`);
    expect(slugsOf(headerSite.json())).toEqual(['on-alpha']);
    const wrongHeader = await getPosts({ 'x-api-key': 'wrong-key' }, `?api_key=${testApiKey}`);
    expect(wrongHeader.statusCode).toBe(401);
  });

  it('refuses missing, wrong and revoked keys with the same 401 body, not cacheable', async () => {
    const revoked = await issueSiteKey(db, siteA, 'soon revoked');
    expect((await getPosts({ 'x-api-key': revoked.key })).statusCode).toBe(200);
    await app.inject({
      method: 'DELETE',
      url: `/api/v1/site/${siteA}/keys/${revoked.id}`,
      headers: { authorization: `Bearer ${adminToken}` },
    });
    const responses = [
      await getPosts(),
      await getPosts({ 'x-api-key': 'not-a-key' }),
      await getPosts({ 'x-api-key': `${testApiKey}x` }),
      await getPosts({ 'x-api-key': `nsk_${'A'.repeat(43)}` }),
      await getPosts({}, '?api_key='),
    ];
    await expect
      .poll(async () => (await getPosts({ 'x-api-key': revoked.key })).statusCode, { timeout: 1_000 })
      .toBe(401);
    responses.push(await getPosts({ 'x-api-key': revoked.key }));
    for (const response of responses) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        statusCode: 401,
        code: 'INVALID_API_KEY',
        error: 'Unauthorized',
        message: 'Missing, invalid or revoked API key',
      });
      expect(response.headers['cache-control']).toBe('no-store');
    }
  });

  it('guards every client route', async () => {
    for (const url of ['/posts', '/partner-articles', '/all', '/article/on-alpha']) {
      expect((await app.inject({ method: 'GET', url: `/api/v1/client${url}` })).statusCode).toBe(401);
    }
  });
});

describe('site key administration', () => {
  const keysUrl = `/api/v1/site/${siteB}/keys`;
  const as = (token?: string) => (token ? { authorization: `Bearer ${token}` } : {});

  it('is for administrators only: anonymous 401, publisher 403', async () => {
    for (const [token, status] of [
      [undefined, 401],
      [publisherToken, 403],
    ] as const) {
      expect(
        (await app.inject({ method: 'POST', url: keysUrl, headers: as(token), payload: { name: 'x' } }))
          .statusCode,
      ).toBe(status);
      expect((await app.inject({ method: 'GET', url: keysUrl, headers: as(token) })).statusCode).toBe(status);
      expect(
        (await app.inject({ method: 'DELETE', url: `${keysUrl}/${alphaKey.id}`, headers: as(token) }))
          .statusCode,
      ).toBe(status);
    }
  });

  it('shows a new key once; the list never contains it; revoking stops it', async () => {
    const created = await app.inject({
      method: 'POST',
      url: keysUrl,
      headers: as(adminToken),
      payload: { name: 'production' },
    });
    expect(created.statusCode).toBe(201);
    const key = created.json();
    expect(key).toMatchObject({ siteId: siteB, name: 'production', revokedAt: null });
    expect(key.key).toMatch(/^nsk_[A-Za-z0-9_-]{43}$/);
    expect(key.key.startsWith(key.prefix)).toBe(true);

    const stored = await db
      .selectFrom('site_api_keys')
      .selectAll()
      .where('id', '=', key.id)
      .executeTakeFirstOrThrow();
    expect(stored.key_hash.toString('hex')).not.toContain(Buffer.from(key.key).toString('hex'));
    expect(JSON.stringify(stored)).not.toContain(key.key);

    const listed = await app.inject({ method: 'GET', url: keysUrl, headers: as(adminToken) });
    expect(listed.statusCode).toBe(200);
    expect(listed.body).not.toContain(key.key);
    expect(listed.json().data).toEqual([
      {
        id: key.id,
        siteId: siteB,
        name: 'production',
        kind: 'secret',
        prefix: key.prefix,
        createdAt: key.createdAt,
        revokedAt: null,
        lastUsedAt: null,
      },
    ]);

    expect(slugsOf((await getPosts({ 'x-api-key': key.key })).json())).toEqual(['on-beta']);
    const revoked = await app.inject({
      method: 'DELETE',
      url: `${keysUrl}/${key.id}`,
      headers: as(adminToken),
    });
    expect(revoked.statusCode).toBe(204);
    await expect
      .poll(async () => (await getPosts({ 'x-api-key': key.key })).statusCode, { timeout: 1_000 })
      .toBe(401);
    const relisted = (await app.inject({ method: 'GET', url: keysUrl, headers: as(adminToken) })).json();
    expect(relisted.data[0].revokedAt).not.toBeNull();
    // Revoking again is harmless and keeps the first revocation time.
    expect(
      (await app.inject({ method: 'DELETE', url: `${keysUrl}/${key.id}`, headers: as(adminToken) }))
        .statusCode,
    ).toBe(204);
    const again = (await app.inject({ method: 'GET', url: keysUrl, headers: as(adminToken) })).json();
    expect(again.data[0].revokedAt).toBe(relisted.data[0].revokedAt);
  });

  it('answers 404 for an unknown site or a key of another site, 400 for malformed ids or names', async () => {
    const unknownSite = '00000000-0000-4000-8000-000000000000';
    expect(
      (
        await app.inject({
          method: 'POST',
          url: `/api/v1/site/${unknownSite}/keys`,
          headers: as(adminToken),
          payload: { name: 'x' },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await app.inject({ method: 'GET', url: `/api/v1/site/${unknownSite}/keys`, headers: as(adminToken) }))
        .statusCode,
    ).toBe(404);
    // alphaKey belongs to site A: revoking it through site B is a 404, and it keeps working.
    expect(
      (await app.inject({ method: 'DELETE', url: `${keysUrl}/${alphaKey.id}`, headers: as(adminToken) }))
        .statusCode,
    ).toBe(404);
    expect((await getPosts({ 'x-api-key': alphaKey.key })).statusCode).toBe(200);
    expect(
      (await app.inject({ method: 'GET', url: '/api/v1/site/not-a-uuid/keys', headers: as(adminToken) }))
        .statusCode,
    ).toBe(400);
    for (const payload of [{}, { name: '' }, { name: 'x'.repeat(101) }, { name: 'x', extra: 1 }]) {
      expect(
        (await app.inject({ method: 'POST', url: keysUrl, headers: as(adminToken), payload })).statusCode,
      ).toBe(400);
    }
  });
});
