import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { insertAdmin, insertPublisher } from './support/dashboard-accounts';
import { insertImportedArticle } from './support/dashboard-users';
import { type OpenApiDocument, type Operation, operationsOf } from './support/fuzz/openapi-operations';
import { createTestApp } from './support/test-app';

/**
 * Derived from our own OpenAPI document: every operation under /article that changes state (any method
 * but GET) writes exactly one revision per article it touches, with the caller as actor and the right
 * source; every read writes none. A new operation under /article fails this test until it says here how
 * to call it, so no write path can be added without its revision.
 */
const testApp = await createTestApp();
const { app, db, close } = testApp;
afterAll(close);
const password = 'correct horse battery staple';
const admin = await insertAdmin(app, db, { email: 'desk@example.com', password });
const { publisherId } = await insertPublisher(app, db, { name: 'Daily Planet', approved: true });
await db
  .insertInto('sites')
  .values([
    { slug: 'metro', name: 'Metro' },
    { slug: 'coast', name: 'Coast' },
  ])
  .execute();

const bearer = { authorization: `Bearer ${admin.token}` };
const signIn = await app.inject({
  method: 'POST',
  url: '/api/v1/auth/session',
  payload: { email: admin.email, password },
  remoteAddress: '10.9.0.1',
});
const sessionCookie = signIn.cookies.find((c) => c.name === 'newsroom_session');
const session = {
  cookie: `newsroom_session=${sessionCookie?.value}`,
  'x-csrf-token': signIn.json().csrfToken as string,
};

const countAll = async () =>
  Number((await sql<{ n: string }>`select count(*) as n from article_revisions`.execute(db)).rows[0]?.n);
const revisionsOf = (id: string) =>
  db.selectFrom('article_revisions').selectAll().where('article_id', '=', id).orderBy('n', 'desc').execute();

async function draft(title = 'Completeness') {
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/article',
    headers: bearer,
    payload: { title },
  });
  expect(response.statusCode).toBe(201);
  return response.json().id as string;
}
async function published() {
  const id = await draft('Published one');
  expect(
    (await app.inject({ method: 'PUT', url: `/api/v1/article/publish/${id}`, headers: bearer })).statusCode,
  ).toBe(200);
  return id;
}
const pending = async () => (await insertImportedArticle(testApp, publisherId, 'Imported one')).id;

/** How to call each state-changing operation: an article in the state it needs, the request, the source. */
interface WriteCase {
  article: () => Promise<string>;
  url?: (id: string) => string;
  payload?: (id: string) => object;
  /** The articles whose revisions the call writes (default: the one article). */
  touched?: (id: string, body: { id?: string }) => string[];
  source: string;
  /** Deletion: the article goes, and its revisions with it. */
  deletes?: boolean;
}

const writes: Record<string, WriteCase> = {
  'POST /api/v1/article': {
    article: async () => '',
    payload: () => ({ title: 'Created', hostSites: ['metro'] }),
    touched: (_id, body) => [body.id as string],
    source: 'api',
  },
  'PUT /api/v1/article/{id}': { article: draft, payload: () => ({ title: 'Edited' }), source: 'api' },
  'POST /api/v1/article/host-site/{id}': {
    article: draft,
    payload: () => ({ hostSites: ['coast'] }),
    source: 'api',
  },
  'PUT /api/v1/article/publish/{id}': { article: draft, source: 'api' },
  'PUT /api/v1/article/unpublish/{id}': { article: published, source: 'api' },
  'PUT /api/v1/article/approve/{id}': {
    article: pending,
    payload: () => ({ reason: 'Solid' }),
    source: 'review',
  },
  'PUT /api/v1/article/reject/{id}': { article: pending, source: 'review' },
  'PUT /api/v1/article/back-to-pending/{id}': {
    article: async () => {
      const id = await pending();
      await app.inject({ method: 'PUT', url: `/api/v1/article/reject/${id}`, headers: bearer });
      return id;
    },
    source: 'review',
  },
  'POST /api/v1/article/bulk': {
    article: draft,
    payload: (id) => ({ action: 'publish', ids: [id] }),
    source: 'bulk',
  },
  'POST /api/v1/article/{id}/revisions/{n}/restore': {
    article: async () => {
      const id = await draft('Restorable');
      await app.inject({
        method: 'PUT',
        url: `/api/v1/article/${id}`,
        headers: bearer,
        payload: { title: 'Changed' },
      });
      return id;
    },
    url: (id) => `/api/v1/article/${id}/revisions/1/restore`,
    source: 'restore',
  },
  'DELETE /api/v1/article/{id}': { article: draft, source: 'api', deletes: true },
  'PUT /api/v1/article/submit/{id}': { article: draft, source: 'api' },
  'PUT /api/v1/article/send-back/{id}': { article: pending, source: 'review' },
  'PUT /api/v1/article/{id}/embargo': {
    article: published,
    payload: () => ({ embargoUntil: new Date(Date.now() + 86_400_000).toISOString() }),
    source: 'api',
  },
};

/** State-changing operations under /article that do not write the article: they record no revision. */
const notArticleWrites: Record<
  string,
  { article: () => Promise<string>; call: (id: string) => Promise<string> }
> = {
  'POST /api/v1/article/{id}/preview-links': {
    article: draft,
    call: async (id) => `/api/v1/article/${id}/preview-links`,
  },
  'DELETE /api/v1/article/{id}/preview-links/{linkId}': {
    article: draft,
    call: async (id) => {
      const made = await app.inject({
        method: 'POST',
        url: `/api/v1/article/${id}/preview-links`,
        headers: bearer,
        payload: {},
      });
      return `/api/v1/article/${id}/preview-links/${made.json().id}`;
    },
  },
};

const document = (await app.inject({ method: 'GET', url: '/docs/json' })).json() as OpenApiDocument;
const articleOperations = operationsOf(document).filter((operation) =>
  operation.path.startsWith('/api/v1/article'),
);
const key = (operation: Operation) => `${operation.method} ${operation.path}`;
const stateChanging = articleOperations.filter(
  (operation) => operation.method !== 'GET' && !(key(operation) in notArticleWrites),
);
const otherWrites = articleOperations.filter((operation) => key(operation) in notArticleWrites);
const reads = articleOperations.filter((operation) => operation.method === 'GET');

describe('revisions are complete (derived from the OpenAPI document)', () => {
  it('knows how to call every state-changing operation under /article', () => {
    expect(stateChanging.length).toBeGreaterThanOrEqual(10);
    expect(stateChanging.map(key).filter((name) => !(name in writes))).toEqual([]);
  });

  for (const operation of stateChanging) {
    it(`${key(operation)} writes one revision with the caller as actor`, async () => {
      const spec = writes[key(operation)];
      if (!spec) throw new Error(`no call for ${key(operation)}`);
      const id = await spec.article();
      const url = spec.url?.(id) ?? operation.path.replace('{id}', id);
      const before = id ? (await revisionsOf(id)).length : 0;
      const response = await app.inject({
        method: operation.method,
        url,
        headers: bearer,
        ...(spec.payload ? { payload: spec.payload(id) } : {}),
      });
      expect(response.statusCode, response.body).toBeLessThan(300);
      if (spec.deletes) {
        expect(await revisionsOf(id)).toEqual([]);
        return;
      }
      const body = response.statusCode === 204 ? {} : response.json();
      for (const touched of spec.touched?.(id, body) ?? [id]) {
        const after = await revisionsOf(touched);
        expect(after.length).toBe(before + 1);
        expect(after[0]).toMatchObject({
          actor_kind: 'api-client',
          actor_id: admin.id,
          actor_label: admin.email,
          source: spec.source,
        });
      }
    });
  }

  for (const operation of otherWrites) {
    it(`${key(operation)} writes no revision (it does not write the article)`, async () => {
      const spec = notArticleWrites[key(operation)];
      if (!spec) throw new Error(`no call for ${key(operation)}`);
      const id = await spec.article();
      const url = await spec.call(id);
      const before = await countAll();
      const response = await app.inject({
        method: operation.method,
        url,
        headers: bearer,
        ...(operation.method === 'POST' ? { payload: {} } : {}),
      });
      expect(response.statusCode, response.body).toBeLessThan(300);
      expect(await countAll()).toBe(before);
    });
  }

  it('writes no revision on any read under /article', async () => {
    const id = await draft('Read only');
    await app.inject({
      method: 'PUT',
      url: `/api/v1/article/${id}`,
      headers: bearer,
      payload: { title: 'Twice' },
    });
    const before = await countAll();
    for (const operation of reads) {
      const url = operation.path.replace('{id}', id).replace('{n}', '1');
      const query = operation.path.endsWith('/diff')
        ? '?from=1&to=2'
        : operation.path.endsWith('/slug-available')
          ? '?slug=free-one'
          : '';
      const response = await app.inject({ method: 'GET', url: `${url}${query}`, headers: bearer });
      expect(response.statusCode, `${key(operation)}: ${response.body}`).toBe(200);
    }
    expect(await countAll()).toBe(before);
  });

  it('records a dashboard session as the user, with the editor, autosave and restore sources', async () => {
    const id = await draft('Session');
    const put = (url: string, payload: object) =>
      app.inject({ method: 'PUT', url, headers: session, payload });
    expect((await put(`/api/v1/article/${id}`, { title: 'Typed' })).statusCode).toBe(200);
    expect((await put(`/api/v1/article/${id}?autosave=true`, { title: 'Autosaved' })).statusCode).toBe(200);
    const [newest, manual] = await revisionsOf(id);
    expect(manual).toMatchObject({ actor_kind: 'user', actor_label: admin.email, source: 'editor' });
    expect(newest).toMatchObject({ actor_kind: 'user', source: 'autosave' });
  });

  it('says a restored published article stays published, and answers the new ETag', async () => {
    const id = await published();
    await app.inject({
      method: 'PUT',
      url: `/api/v1/article/${id}`,
      headers: bearer,
      payload: { title: 'Corrected' },
    });
    const restore = await app.inject({
      method: 'POST',
      url: `/api/v1/article/${id}/revisions/1/restore`,
      headers: bearer,
      payload: { reason: 'Correction was wrong' },
    });
    expect(restore.statusCode).toBe(200);
    expect(restore.json()).toMatchObject({
      restoredFrom: 1,
      revision: 4,
      statusUnchanged: true,
      article: { title: 'Published one', status: 'published' },
    });
    expect(restore.json().message).toMatch(/stays published/);
    const read = await app.inject({ method: 'GET', url: `/api/v1/article/${id}`, headers: bearer });
    expect(read.headers.etag).toBe(restore.headers.etag);
    const diff = await app.inject({
      method: 'GET',
      url: `/api/v1/article/${id}/revisions/diff?from=3&to=4`,
      headers: bearer,
    });
    expect(diff.json().fields).toEqual([{ field: 'title', from: 'Corrected', to: 'Published one' }]);
    const stale = await app.inject({
      method: 'POST',
      url: `/api/v1/article/${id}/revisions/2/restore`,
      headers: { ...bearer, 'if-match': '"1"' },
    });
    expect(stale.statusCode).toBe(412);
    const missing = await app.inject({
      method: 'GET',
      url: `/api/v1/article/${id}/revisions/99`,
      headers: bearer,
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('REVISION_NOT_FOUND');
  });

  it('pages the list by number: `before` answers the revisions below it, newest first, and counts them all', async () => {
    const id = await draft('Paged');
    for (const title of ['Two', 'Three', 'Four']) {
      await app.inject({ method: 'PUT', url: `/api/v1/article/${id}`, headers: bearer, payload: { title } });
    }
    const list = async (query: string) => {
      const response = await app.inject({
        method: 'GET',
        url: `/api/v1/article/${id}/revisions?${query}`,
        headers: bearer,
      });
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json() as { data: { n: number }[]; meta: { pagination: { total: number } } };
      return { ns: body.data.map((revision) => revision.n), total: body.meta.pagination.total };
    };
    expect(await list('limit=2')).toEqual({ ns: [4, 3], total: 4 });
    expect(await list('limit=2&before=3')).toEqual({ ns: [2, 1], total: 4 });
    expect(await list('limit=2&before=1')).toEqual({ ns: [], total: 4 });
    const bad = await app.inject({
      method: 'GET',
      url: `/api/v1/article/${id}/revisions?before=0`,
      headers: bearer,
    });
    expect(bad.statusCode).toBe(400);
  });
});
