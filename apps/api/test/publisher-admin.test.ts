import type { ArticleStatus } from '@newsroom/domain';
import bcrypt from 'bcryptjs';
import { afterAll, describe, expect, it } from 'vitest';
import { bearer, insertAdmin, insertPublisher } from './support/dashboard-accounts';
import { createTestApp } from './support/test-app';

const { app, db, close } = await createTestApp();
afterAll(close);

const admin = await insertAdmin(app, db);
const asAdmin = bearer(admin.token);
const unknownId = '00000000-0000-4000-8000-000000000000';
const password = 'a long enough password';

const request = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  app.inject({ method, url: `/api/v1/publisher${url}`, headers: asAdmin, ...(payload && { payload }) });

let articleNumber = 0;
async function insertArticle(publisherId: string | null, status: ArticleStatus, createdAt = new Date()) {
  const n = ++articleNumber;
  await db
    .insertInto('articles')
    .values({
      title: `Imported ${n}`,
      slug: `imported-${n}`,
      status,
      is_aggregated: true,
      source: 'Daily Planet',
      source_url: `https://planet.example/${n}`,
      rss_feed_guid: `guid-${n}`,
      publisher_id: publisherId,
      published_at: status === 'published' ? createdAt : null,
      created_at: createdAt,
    })
    .execute();
}

describe('POST /api/v1/publisher', () => {
  it('creates the publisher and a login that works, never returning the password', async () => {
    const response = await request('POST', '', {
      name: ' Daily Planet ',
      email: 'News@Planet.example',
      password,
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({
      name: 'Daily Planet',
      email: 'News@Planet.example',
      approved: false,
      autoApprove: false,
      disabled: false,
      feedUrl: null,
      defaultTags: [],
      defaultHostSites: [],
      articleCounts: { draft: 0, pending: 0, published: 0, rejected: 0, total: 0 },
    });
    expect(response.body).not.toContain(password);
    expect(response.body).not.toMatch(/\$2[aby]\$/);
    const login = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: 'news@planet.example', password },
    });
    expect(login.json().user).toMatchObject({ role: 'publisher', publisherId: body.id });
    const user = await db
      .selectFrom('users')
      .select('password_hash')
      .where('publisher_id', '=', body.id)
      .executeTakeFirstOrThrow();
    expect(bcrypt.getRounds(user.password_hash)).toBeGreaterThanOrEqual(10);
  });

  it('refuses an e-mail already used by any login, in any case, with 409 EMAIL_TAKEN and creates nothing', async () => {
    const before = await db
      .selectFrom('publishers')
      .select(db.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    for (const email of ['NEWS@planet.example', admin.email.toUpperCase()]) {
      const response = await request('POST', '', { name: 'Copycat', email, password });
      expect(response.statusCode).toBe(409);
      expect(response.json().code).toBe('EMAIL_TAKEN');
    }
    const after = await db
      .selectFrom('publishers')
      .select(db.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it.each([
    ['a short password', { name: 'P', email: 'p1@x.example', password: 'short' }, 'VALIDATION_ERROR'],
    [
      'a password over 72 bytes',
      { name: 'P', email: 'p2@x.example', password: 'é'.repeat(40) },
      'PASSWORD_TOO_LONG',
    ],
    ['a malformed e-mail', { name: 'P', email: 'not-an-email', password }, 'VALIDATION_ERROR'],
    ['a blank name', { name: '   ', email: 'p3@x.example', password }, 'VALIDATION_ERROR'],
    [
      'an unknown property',
      { name: 'P', email: 'p4@x.example', password, approved: true },
      'VALIDATION_ERROR',
    ],
    ['a missing name', { email: 'p5@x.example', password }, 'VALIDATION_ERROR'],
  ])('refuses %s with 400', async (_name, body, code) => {
    const response = await request('POST', '', body);
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe(code);
  });
});

describe('GET /api/v1/publisher', () => {
  it('lists by name (sort=name) with pagination and filters on approved and disabled', async () => {
    const a = await insertPublisher(app, db, { name: 'AAA list approved', approved: true });
    const b = await insertPublisher(app, db, { name: 'AAB list disabled' });
    await request('PUT', `/${b.publisherId}/disable`);

    const all = await request('GET', '?sort=name&limit=2&page=1');
    expect(all.statusCode).toBe(200);
    const allBody = all.json();
    expect(allBody.data).toHaveLength(2);
    expect(allBody.data[0].name).toBe('AAA list approved');
    expect(allBody.meta.pagination).toMatchObject({ page: 1, limit: 2, prev: null, next: 2 });

    const approved = (await request('GET', '?approved=true&limit=100')).json();
    expect(approved.data.map((p: { id: string }) => p.id)).toContain(a.publisherId);
    expect(approved.data.every((p: { approved: boolean }) => p.approved)).toBe(true);

    const disabled = (await request('GET', '?disabled=true&limit=100')).json();
    expect(disabled.data.map((p: { id: string }) => p.id)).toEqual([b.publisherId]);
    expect(disabled.data[0]).toMatchObject({ disabled: true, email: b.email });

    const enabled = (await request('GET', '?disabled=false&limit=100')).json();
    expect(enabled.data.map((p: { id: string }) => p.id)).not.toContain(b.publisherId);
    expect(enabled.meta.pagination.total).toBe(allBody.meta.pagination.total - 1);
  });

  it.each(['?limit=0', '?limit=101', '?page=0', '?approved=maybe', '?sort=oldest', '?state=pending'])(
    'refuses %s with 400',
    async (q) => {
      expect((await request('GET', q)).statusCode).toBe(400);
    },
  );
});

describe('GET /api/v1/publisher/:id', () => {
  it('returns settings, fetch state and article counts by status', async () => {
    const p = await insertPublisher(app, db, { name: 'Counted' });
    await db
      .updateTable('publishers')
      .set({
        last_error: 'HTTP 500',
        consecutive_failures: 2,
        last_fetched_at: new Date('2026-11-01T10:00:00Z'),
      })
      .where('id', '=', p.publisherId)
      .execute();
    for (const status of ['pending', 'pending', 'published', 'rejected'] as const) {
      await insertArticle(p.publisherId, status);
    }
    const response = await request('GET', `/${p.publisherId}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: p.publisherId,
      name: 'Counted',
      email: p.email,
      lastError: 'HTTP 500',
      consecutiveFailures: 2,
      lastFetchedAt: '2026-11-01T10:00:00.000Z',
      articleCounts: { draft: 0, pending: 2, published: 1, rejected: 1, total: 4 },
    });
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    const unknown = await request('GET', `/${unknownId}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('PUBLISHER_NOT_FOUND');
    expect((await request('GET', '/not-a-uuid')).statusCode).toBe(400);
  });
});

describe('PUT /api/v1/publisher/:id', () => {
  it('edits name, autoApprove, tags and default host sites (by slug)', async () => {
    await db
      .insertInto('sites')
      .values([
        { slug: 'metro', name: 'Metro' },
        { slug: 'sports', name: 'Sports' },
      ])
      .execute();
    const p = await insertPublisher(app, db);
    const response = await request('PUT', `/${p.publisherId}`, {
      name: 'Renamed',
      autoApprove: true,
      defaultTags: [' world ', 'World', '', 'politics'],
      defaultHostSites: ['sports', 'metro'],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      name: 'Renamed',
      autoApprove: true,
      defaultTags: ['world', 'politics'],
      defaultHostSites: ['metro', 'sports'],
    });
    const partial = await request('PUT', `/${p.publisherId}`, { defaultHostSites: ['metro'] });
    expect(partial.json()).toMatchObject({ name: 'Renamed', autoApprove: true, defaultHostSites: ['metro'] });
  });

  it('refuses an unknown site with 400 naming it, and changes nothing', async () => {
    const p = await insertPublisher(app, db, { name: 'Unchanged' });
    const response = await request('PUT', `/${p.publisherId}`, {
      name: 'Changed',
      defaultHostSites: ['atlantis'],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'UNKNOWN_SITE' });
    expect(response.json().message).toContain('atlantis');
    expect((await request('GET', `/${p.publisherId}`)).json().name).toBe('Unchanged');
  });

  it.each([
    ['an empty body', {}],
    ['a read-only field', { approved: true }],
    ['too many tags', { defaultTags: Array.from({ length: 31 }, (_, i) => `t${i}`) }],
    ['an over-long tag', { defaultTags: ['x'.repeat(61)] }],
  ])('refuses %s with 400', async (_name, body) => {
    const p = await insertPublisher(app, db);
    expect((await request('PUT', `/${p.publisherId}`, body)).statusCode).toBe(400);
  });

  it('answers 404 for an unknown publisher', async () => {
    expect((await request('PUT', `/${unknownId}`, { name: 'x' })).statusCode).toBe(404);
  });
});

describe('approve, disable, enable', () => {
  it('approves (twice is harmless)', async () => {
    const p = await insertPublisher(app, db);
    expect((await request('PUT', `/${p.publisherId}/approve`)).json().approved).toBe(true);
    expect((await request('PUT', `/${p.publisherId}/approve`)).statusCode).toBe(200);
  });

  it('disabling stops logins and refuses existing tokens; enabling restores both', async () => {
    const p = await insertPublisher(app, db, { password });
    const me = () => app.inject({ method: 'GET', url: '/api/v1/publisher/me', headers: bearer(p.token) });
    const login = () =>
      app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: p.email, password } });
    expect((await me()).statusCode).toBe(200);

    const disabled = await request('PUT', `/${p.publisherId}/disable`);
    expect(disabled.json()).toMatchObject({ disabled: true });
    expect(disabled.json().disabledAt).toEqual(expect.any(String));
    expect((await me()).statusCode).toBe(401);
    expect((await login()).statusCode).toBe(401);
    // Disabling again keeps the first time.
    expect((await request('PUT', `/${p.publisherId}/disable`)).json().disabledAt).toBe(
      disabled.json().disabledAt,
    );

    const enabled = await request('PUT', `/${p.publisherId}/enable`);
    expect(enabled.json()).toMatchObject({ disabled: false, disabledAt: null });
    expect((await me()).statusCode).toBe(200);
    expect((await login()).statusCode).toBe(200);
  });

  it.each(['approve', 'disable', 'enable'])(
    '%s: 404 for an unknown id, 400 for a malformed one',
    async (action) => {
      expect((await request('PUT', `/${unknownId}/${action}`)).statusCode).toBe(404);
      expect((await request('PUT', `/12345/${action}`)).statusCode).toBe(400);
    },
  );
});

describe('DELETE /api/v1/publisher/:id', () => {
  it('removes the publisher and its login; its articles stay with their source attribution', async () => {
    const p = await insertPublisher(app, db, { password });
    await insertArticle(p.publisherId, 'published');
    await insertArticle(p.publisherId, 'pending');
    const response = await request('DELETE', `/${p.publisherId}`);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');

    expect((await request('GET', `/${p.publisherId}`)).statusCode).toBe(404);
    expect(
      await db.selectFrom('users').select('id').where('id', '=', p.id).executeTakeFirst(),
    ).toBeUndefined();
    const me = await app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: bearer(p.token) });
    expect(me.statusCode).toBe(401);

    const kept = await db
      .selectFrom('articles')
      .select(['status', 'source', 'source_url', 'publisher_id'])
      .where('rss_feed_guid', 'in', [`guid-${articleNumber - 1}`, `guid-${articleNumber}`])
      .orderBy('status')
      .execute();
    expect(kept).toEqual([
      { status: 'pending', source: 'Daily Planet', source_url: expect.any(String), publisher_id: null },
      { status: 'published', source: 'Daily Planet', source_url: expect.any(String), publisher_id: null },
    ]);
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    expect((await request('DELETE', `/${unknownId}`)).statusCode).toBe(404);
    expect((await request('DELETE', '/nope')).statusCode).toBe(400);
  });
});

describe('GET /api/v1/publisher/reports', () => {
  it('counts articles per publisher per month of creation (UTC), zeros included', async () => {
    const first = await insertPublisher(app, db, { name: '000 Report first' });
    const second = await insertPublisher(app, db, { name: '000 Report second' });
    await insertArticle(first.publisherId, 'published', new Date('2026-01-31T23:59:59Z'));
    await insertArticle(first.publisherId, 'pending', new Date('2026-02-01T00:00:00Z'));
    await insertArticle(first.publisherId, 'rejected', new Date('2026-02-15T12:00:00Z'));
    await insertArticle(first.publisherId, 'published', new Date('2026-04-01T00:00:00Z')); // after the range
    await insertArticle(second.publisherId, 'published', new Date('2025-12-31T23:59:59Z')); // before it
    await insertArticle(null, 'published', new Date('2026-02-10T00:00:00Z')); // deleted publisher

    const response = await request('GET', '/reports?from=2026-01&to=2026-03');
    expect(response.statusCode).toBe(200);
    const report = response.json();
    expect(report.months).toEqual(['2026-01', '2026-02', '2026-03']);
    const rows = report.publishers.filter((p: { name: string }) => p.name.startsWith('000 Report'));
    expect(rows).toEqual([
      { id: first.publisherId, name: '000 Report first', counts: [1, 2, 0], total: 3 },
      { id: second.publisherId, name: '000 Report second', counts: [0, 0, 0], total: 0 },
    ]);
  });

  it('covers a range across a year boundary', async () => {
    const report = (await request('GET', '/reports?from=2025-11&to=2026-02')).json();
    expect(report.months).toEqual(['2025-11', '2025-12', '2026-01', '2026-02']);
  });

  it.each([
    ['a missing to', '?from=2026-01', 'VALIDATION_ERROR'],
    ['a malformed month', '?from=2026-1&to=2026-03', 'VALIDATION_ERROR'],
    ['month 13', '?from=2026-13&to=2027-01', 'VALIDATION_ERROR'],
    ['from after to', '?from=2026-05&to=2026-03', 'INVALID_RANGE'],
    ['more than 36 months', '?from=2020-01&to=2023-01', 'RANGE_TOO_LONG'],
  ])('refuses %s with 400', async (_name, query, code) => {
    const response = await request('GET', `/reports${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe(code);
  });

  it('accepts exactly 36 months', async () => {
    expect((await request('GET', '/reports?from=2020-01&to=2022-12')).json().months).toHaveLength(36);
  });
});
