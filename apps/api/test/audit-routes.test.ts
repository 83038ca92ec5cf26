import { type AuditEventInput, appendAuditEvents } from '@newsroom/domain';
import { afterAll, describe, expect, it } from 'vitest';
import { createDashboardUsers } from './support/dashboard-users';
import { createTestApp } from './support/test-app';

const testApp = await createTestApp();
const { app, db, close } = testApp;
afterAll(close);
const { adminToken, publisherToken } = await createDashboardUsers(testApp);

const get = (url: string, token = adminToken) =>
  app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });

const siteA = '00000000-0000-4000-8000-00000000000a';
const userA = '00000000-0000-4000-8000-0000000000a1';
const event = (i: number): AuditEventInput => ({
  actor: { type: 'user', id: i % 3 === 0 ? userA : null, label: `user-${i % 3}` },
  address: '192.0.2.1',
  action: i % 2 ? 'updateArticle' : 'createSiteKey',
  objectType: i % 2 ? 'article' : 'site_key',
  objectId: `obj-${i % 10}`,
  siteId: i % 5 === 0 ? siteA : null,
  changes: { after: { n: i } },
});
const total = 2_500;
await appendAuditEvents(
  db,
  Array.from({ length: total }, (_, i) => event(i)),
);

describe('GET /audit', () => {
  it('is for administrators only', async () => {
    expect((await get('/api/v1/audit', publisherToken)).statusCode).toBe(403);
    expect((await app.inject('/api/v1/audit')).statusCode).toBe(401);
  });

  it('pages newest first by keyset until the end', async () => {
    const seen: number[] = [];
    let url = '/api/v1/audit?limit=200&action=createSiteKey';
    for (let pages = 0; pages < 20; pages++) {
      const response = await get(url);
      expect(response.statusCode, response.body).toBe(200);
      const { data, next } = response.json();
      seen.push(...data.map((e: { seq: number }) => e.seq));
      if (next === null) break;
      url = `/api/v1/audit?limit=200&action=createSiteKey&before=${next}`;
    }
    expect(seen).toHaveLength(total / 2);
    expect([...seen].sort((a, b) => b - a)).toEqual(seen);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('filters by actor, object, site and time', async () => {
    const byObject = (await get('/api/v1/audit?objectType=article&objectId=obj-3&limit=200')).json();
    // 250 match: a full page and a cursor.
    expect(byObject.data.length).toBe(200);
    expect(byObject.next).not.toBeNull();
    expect(byObject.data.every((e: { objectId: string }) => e.objectId === 'obj-3')).toBe(true);
    const bySite = (await get(`/api/v1/audit?site=${siteA}&actor=${userA}&limit=200`)).json();
    expect(bySite.data.length).toBe(Math.ceil(total / 15));
    const future = (await get('/api/v1/audit?from=2999-01-01T00:00:00Z')).json();
    expect(future).toEqual({ data: [], next: null });
  });

  it("files a created site's row under that site (the site's audit link filters by it)", async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/site',
      headers: { authorization: `Bearer ${adminToken}` },
      payload: { slug: 'audit-filed-site', name: 'Filed' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    const filed = (await get(`/api/v1/audit?site=${id}&action=createSite`)).json();
    expect(filed.data).toMatchObject([
      { action: 'createSite', objectType: 'site', objectId: id, siteId: id },
    ]);
  });

  it('answers bad filters with a 400, not a 500', async () => {
    for (const query of ['before=abc', 'site=not-a-uuid', 'from=yesterday', 'limit=0', 'bogus=1']) {
      const response = await get(`/api/v1/audit?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().code, query).toBeDefined();
    }
  });
});

describe('GET /audit/export', () => {
  it('streams every event of the range as NDJSON, oldest first, each chained to the one before', async () => {
    const response = await get('/api/v1/audit/export?from=2000-01-01T00:00:00Z');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/x-ndjson/);
    const lines = response.body
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.length).toBeGreaterThanOrEqual(total);
    for (let i = 1; i < lines.length; i++) expect(lines[i].prevHash).toBe(lines[i - 1].hash);
    // The export itself is audited.
    const latest = (await get('/api/v1/audit?limit=1')).json().data[0];
    expect(latest).toMatchObject({ action: 'exportAuditEvents', objectType: 'audit_log' });
  });
});
