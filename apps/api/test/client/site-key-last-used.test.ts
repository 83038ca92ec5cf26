import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { insertSite, issueSiteKey } from '../support/content-fixtures';
import { insertAdmin } from '../support/dashboard-accounts';
import { createTestApp } from '../support/test-app';

const { app, db, config, close } = await createTestApp();
afterAll(close);

const site = await insertSite(db, 'alpha');
const used = await issueSiteKey(db, site, 'used');
const idle = await issueSiteKey(db, site, 'idle');
const { token: adminToken } = await insertAdmin(app, db);

const listKeys = async () =>
  (
    await app.inject({
      method: 'GET',
      url: `/api/v1/site/${site}/keys`,
      headers: { authorization: `Bearer ${adminToken}` },
    })
  ).json().data as { id: string; lastUsedAt: string | null }[];
const lastUsedOf = async (id: string) => (await listKeys()).find((key) => key.id === id)?.lastUsedAt;

describe('site key lastUsedAt', () => {
  it('is recorded off the request path: nothing is written until the periodic flush, then the time shows', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/v1/client/posts',
      headers: { 'x-api-key': used.key },
    });
    expect(response.statusCode).toBe(200);
    expect(await lastUsedOf(used.id)).toBeNull();

    const before = Date.now();
    await app.siteKeyUsage.flush();
    const recorded = await lastUsedOf(used.id);
    expect(Date.parse(recorded as string)).toBeGreaterThanOrEqual(before - 1_000);
    expect(await lastUsedOf(idle.id)).toBeNull();
  });

  it('writing it sends no content-change notification (client caches stay warm)', async () => {
    const listener = new pg.Client({ connectionString: config.databaseUrl });
    await listener.connect();
    try {
      const heard: string[] = [];
      listener.on('notification', (message) => heard.push(message.payload ?? ''));
      await listener.query('listen content_changed');
      await app.inject({ method: 'GET', url: '/api/v1/client/posts', headers: { 'x-api-key': used.key } });
      await app.siteKeyUsage.flush();
      // Notifications arrive in commit order: once the barrier is heard, any from the flush would be too.
      await sql`select pg_notify('content_changed', 'barrier')`.execute(db);
      await expect.poll(() => heard.includes('barrier'), { timeout: 5_000 }).toBe(true);
      expect(heard).toEqual(['barrier']);
    } finally {
      await listener.end();
    }
  });
});
