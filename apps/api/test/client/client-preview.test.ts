import {
  createPreviewLink,
  createWebhookEndpoint,
  relayArticleChanges,
  webhookEventTypes,
} from '@newsroom/domain';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { type ChangesPage, followChanges } from '../support/change-feed-reader';
import { insertArticle, insertSite, issueSiteKey } from '../support/content-fixtures';
import { bearer, insertAdmin, insertPublisher } from '../support/dashboard-accounts';
import { createTestApp, testApiKey } from '../support/test-app';

// Preview links (issue 29): a token opens one article, published or not, in the shape of /client/article/:slug,
// with no key; it never opens another article; revocation and expiry hold on every replica at once; and a
// previewed draft shows up nowhere else.

const primary = await createTestApp({ env: { RATE_LIMIT_CLIENT_ALL: 'off' } });
const replica = await createTestApp({ replicaOf: primary });
afterAll(async () => {
  await replica.close();
  await primary.close();
});
const { app, db } = primary;
const alpha = await insertSite(db, 'alpha');
await db
  .updateTable('sites')
  .set({ article_url_template: 'https://alpha.example/news/{slug}' })
  .where('id', '=', alpha)
  .execute();
const alphaKey = await issueSiteKey(db, alpha, 'alpha');
const admin = await insertAdmin(app, db);

interface CreatedLink {
  id: string;
  token: string;
  path: string;
  pinned: boolean;
  expiresAt: string;
}

async function createLink(articleId: string, body: Record<string, unknown> = {}): Promise<CreatedLink> {
  const response = await app.inject({
    method: 'POST',
    url: `/api/v1/article/${articleId}/preview-links`,
    headers: bearer(admin.token),
    payload: body,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as CreatedLink;
}

const preview = (
  token: string,
  options: { target?: typeof primary; query?: string; headers?: Record<string, string> } = {},
) =>
  (options.target ?? primary).app.inject({
    method: 'GET',
    url: `/api/v1/client/preview/${encodeURIComponent(token)}${options.query ?? ''}`,
    headers: options.headers,
  });

/** Moves a link's expiry into the past (and its creation before it, as the check constraint wants). */
const expire = (linkId: string) =>
  sql`update article_preview_links
         set created_at = now() - interval '2 hours', expires_at = now() - interval '1 millisecond'
       where id = ${linkId}`.execute(db);

const clientGet = (url: string, key: string = testApiKey) =>
  app.inject({ method: 'GET', url: `/api/v1/client${url}`, headers: { 'x-api-key': key } });

describe('GET /client/preview/:token', () => {
  it('answers a draft without a key, no-store and noindex, in the article shape (publishedAt: its last save)', async () => {
    const draft = await insertArticle(db, { status: 'draft', siteIds: [alpha], title: 'Draft under review' });
    const link = await createLink(draft.id);
    expect(link.token).toMatch(/^npv_[A-Za-z0-9_-]{43}$/);
    expect(link.path).toBe(`/api/v1/client/preview/${link.token}`);
    const response = await app.inject({ method: 'GET', url: link.path });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['x-robots-tag']).toContain('noindex');
    const body = response.json();
    expect(body).toMatchObject({ id: draft.id, title: 'Draft under review', hostSites: ['alpha'] });
    expect(body.urls).toEqual({ alpha: `https://alpha.example/news/${draft.slug}` });
    expect(body.publishedAt).toBe(body.updatedAt);
  });

  it('writes exactly what /client/article/:slug writes, network-wide and for one site', async () => {
    const article = await insertArticle(db, { siteIds: [alpha], tags: ['Politics'], category: 'News' });
    const link = await createLink(article.id);
    const network = await clientGet(`/article/${article.slug}`);
    expect((await preview(link.token)).body).toBe(network.body);
    const site = await clientGet(`/article/${article.slug}`, alphaKey.key);
    const sitePreview = await preview(link.token, { query: '?site=alpha' });
    expect(sitePreview.body).toBe(site.body);
    expect(sitePreview.json().url).toBe(`https://alpha.example/news/${article.slug}`);
  });

  it('answers unknown, malformed, expired and revoked tokens with the same 404', async () => {
    const article = await insertArticle(db, { status: 'draft', siteIds: [alpha] });
    const revoked = await createLink(article.id);
    const expired = await createLink(article.id);
    const removed = await app.inject({
      method: 'DELETE',
      url: `/api/v1/article/${article.id}/preview-links/${revoked.id}`,
      headers: bearer(admin.token),
    });
    expect(removed.statusCode).toBe(204);
    await expire(expired.id);
    const unknown = `npv_${'A'.repeat(43)}`;
    const answers = await Promise.all(
      [revoked.token, expired.token, unknown, 'not-a-token', `${revoked.token}x`].map((token) =>
        preview(token),
      ),
    );
    for (const answer of answers) {
      expect(answer.statusCode).toBe(404);
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(answer.headers['x-robots-tag']).toContain('noindex');
      expect(answer.json()).toMatchObject({ code: 'PREVIEW_NOT_FOUND' });
    }
    expect(new Set(answers.map((answer) => answer.body)).size).toBe(1);

    // Deleting the article deletes its links: the token answers the same 404.
    const doomed = await createLink(article.id);
    const deleted = await app.inject({
      method: 'DELETE',
      url: `/api/v1/article/${article.id}`,
      headers: bearer(admin.token),
    });
    expect(deleted.statusCode).toBe(204);
    expect((await preview(doomed.token)).body).toBe(answers[0]?.body);
  });

  it('takes no key as a bypass: a valid key with a wrong token is a 404, a wrong key changes nothing', async () => {
    const article = await insertArticle(db, { siteIds: [alpha] });
    const link = await createLink(article.id);
    const wrongToken = await preview(`npv_${'B'.repeat(43)}`, { headers: { 'x-api-key': testApiKey } });
    expect(wrongToken.statusCode).toBe(404);
    const siteKeyOnly = await preview(article.slug, { headers: { 'x-api-key': alphaKey.key } });
    expect(siteKeyOnly.statusCode).toBe(404);
    const withJunkKey = await preview(link.token, { headers: { 'x-api-key': 'nsk_wrong' } });
    expect(withJunkKey.statusCode).toBe(200);
    expect(withJunkKey.json().id).toBe(article.id);
  });

  it('refuses an unknown ?site= with a 400 once the token opened, and a wrong token stays a 404', async () => {
    const article = await insertArticle(db, { status: 'draft', siteIds: [alpha] });
    const link = await createLink(article.id);
    const unknownSite = await preview(link.token, { query: '?site=nowhere' });
    expect(unknownSite.statusCode).toBe(400);
    expect(unknownSite.json()).toMatchObject({ code: 'UNKNOWN_SITE' });
    expect((await preview(`npv_${'C'.repeat(43)}`, { query: '?site=nowhere' })).statusCode).toBe(404);
  });

  it('follows the live article unless pinned: a pinned link keeps what it showed when it was made', async () => {
    const article = await insertArticle(db, { status: 'draft', siteIds: [alpha], title: 'First version' });
    const live = await createLink(article.id);
    const pinned = await createLink(article.id, { pinned: true });
    expect(pinned.pinned).toBe(true);
    const edited = await app.inject({
      method: 'PUT',
      url: `/api/v1/article/${article.id}`,
      headers: bearer(admin.token),
      payload: { title: 'Second version', body: '<p>Edited</p>' },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await preview(live.token)).json()).toMatchObject({
      title: 'Second version',
      body: '<p>Edited</p>',
    });
    const frozen = (await preview(pinned.token)).json();
    expect(frozen).toMatchObject({ id: article.id, title: 'First version', hostSites: ['alpha'] });
    expect(typeof frozen.publishedAt).toBe('string');
  });

  it('opens only its own article: many tokens over many articles, in random order', async () => {
    const articles = await Promise.all(
      Array.from({ length: 24 }, (_, index) =>
        insertArticle(db, {
          status: index % 3 === 0 ? 'published' : 'draft',
          siteIds: index % 2 ? [alpha] : [],
        }),
      ),
    );
    const links: Array<{ token: string; articleId: string }> = [];
    for (const article of articles) {
      for (let copy = 0; copy < 3; copy++) {
        const link = await createLink(article.id, { pinned: copy === 2 });
        links.push({ token: link.token, articleId: article.id });
      }
    }
    // A deterministic shuffle (a fixed linear congruential sequence), so a failure replays.
    let seed = 29;
    const shuffled = links
      .map((link) => {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        return { link, order: seed };
      })
      .sort((a, b) => a.order - b.order)
      .map(({ link }) => link);
    for (const { token, articleId } of shuffled) {
      const response = await preview(token);
      expect(response.statusCode).toBe(200);
      expect(response.json().id).toBe(articleId);
      // A token one character off opens nothing (not a neighbour's article).
      const last = token.at(-1) === 'A' ? 'B' : 'A';
      expect((await preview(`${token.slice(0, -1)}${last}`)).statusCode).toBe(404);
    }
  });
});

describe('revocation and expiry across replicas', () => {
  const soon = { timeout: 1_000, interval: 20 };

  it('ends a link revoked through one replica on the other within a second', async () => {
    const article = await insertArticle(db, { status: 'draft', siteIds: [alpha] });
    const link = await createLink(article.id);
    expect((await preview(link.token, { target: replica })).statusCode).toBe(200);
    expect((await preview(link.token)).statusCode).toBe(200);
    const revoked = await app.inject({
      method: 'DELETE',
      url: `/api/v1/article/${article.id}/preview-links/${link.id}`,
      headers: bearer(admin.token),
    });
    expect(revoked.statusCode).toBe(204);
    await expect
      .poll(async () => (await preview(link.token, { target: replica })).statusCode, soon)
      .toBe(404);
    expect((await preview(link.token)).statusCode).toBe(404);
  });

  it('ends a link on every replica once its expiry passes (the database clock decides)', async () => {
    const article = await insertArticle(db, { siteIds: [alpha] });
    const link = await createLink(article.id, { expiresInHours: 1 });
    expect((await preview(link.token, { target: replica })).statusCode).toBe(200);
    await expire(link.id);
    await expect
      .poll(async () => (await preview(link.token, { target: replica })).statusCode, soon)
      .toBe(404);
    expect((await preview(link.token)).statusCode).toBe(404);
  });
});

describe('a previewed draft shows up nowhere else', () => {
  it('is absent from every list, feed, sitemap, search, the change feed and webhook events', async () => {
    await createWebhookEndpoint(db, {
      url: 'https://hooks.example/preview',
      events: [...webhookEventTypes],
      site: null,
      enabled: true,
    });
    const since = (await clientGet('/changes')).json() as ChangesPage;
    const marker = `previewmarker${Date.now().toString(36)}`;
    const draft = await insertArticle(db, {
      status: 'draft',
      siteIds: [alpha],
      title: `Secret ${marker}`,
      body: `<p>${marker} body</p>`,
      tags: [`tag${marker}`],
      category: `cat${marker}`,
      section: `sec${marker}`,
    });
    // A published neighbour proves the routes below do list what is published.
    const visible = await insertArticle(db, { siteIds: [alpha], title: 'Visible neighbour' });
    for (const pinned of [false, true]) {
      const link = await createLink(draft.id, { pinned });
      expect((await preview(link.token)).json().title).toBe(`Secret ${marker}`);
    }
    const routes = [
      '/posts',
      '/posts?site=alpha',
      `/posts?q=${marker}`,
      '/partner-articles',
      '/all',
      '/all?format=array',
      `/article/${draft.slug}`,
      '/tags',
      '/categories',
      '/sections',
      '/feed.xml?site=alpha',
      '/feed.json?site=alpha',
      '/sitemap.xml?site=alpha',
      '/sitemap-news.xml?site=alpha',
    ];
    for (const route of routes) {
      for (const key of [testApiKey, alphaKey.key]) {
        const url =
          key === testApiKey || !route.includes('site=') ? route : route.replace(/[?&]site=alpha/, '');
        const response = await clientGet(url, key);
        expect([200, 404], `${url}: ${response.body.slice(0, 200)}`).toContain(response.statusCode);
        expect(response.body, url).not.toContain(marker);
        expect(response.body, url).not.toContain(draft.id);
      }
    }
    expect((await clientGet('/posts')).body).toContain(visible.id);
    const { items } = await followChanges((url) => clientGet(url), since.meta.next, {
      expected: 1,
      ids: [visible.id],
    });
    expect(items.filter((item) => item.id === draft.id && item.type === 'upsert')).toEqual([]);
    expect(JSON.stringify(items)).not.toContain(marker);
    await relayArticleChanges(db);
    const events = await db.selectFrom('webhook_events').select(['type', 'body']).execute();
    expect(events.some((event) => event.body.includes(visible.id))).toBe(true);
    expect(events.filter((event) => event.body.includes(marker))).toEqual([]);
  });
});

describe('preview link administration', () => {
  it('lists the live links of an article (never tokens), revokes them, and refuses what it cannot do', async () => {
    const article = await insertArticle(db, { status: 'draft' });
    const first = await createLink(article.id);
    const second = await createLink(article.id, { pinned: true, expiresInHours: 2 });
    const dead = await createLink(article.id);
    await app.inject({
      method: 'DELETE',
      url: `/api/v1/article/${article.id}/preview-links/${dead.id}`,
      headers: bearer(admin.token),
    });
    const list = await app.inject({
      method: 'GET',
      url: `/api/v1/article/${article.id}/preview-links`,
      headers: bearer(admin.token),
    });
    expect(list.statusCode).toBe(200);
    const data = list.json().data as Array<Record<string, unknown>>;
    expect(data.map((link) => link.id)).toEqual([second.id, first.id]);
    expect(data[0]).toMatchObject({ pinned: true, createdBy: admin.id, revokedAt: null });
    expect(list.body).not.toContain(first.token);
    expect(new Date(second.expiresAt).getTime() - Date.now()).toBeLessThanOrEqual(2 * 3_600_000);
    expect(new Date(first.expiresAt).getTime() - Date.now()).toBeGreaterThan(6.9 * 24 * 3_600_000);

    const post = (articleId: string, payload: Record<string, unknown>, token = admin.token) =>
      app.inject({
        method: 'POST',
        url: `/api/v1/article/${articleId}/preview-links`,
        headers: bearer(token),
        payload,
      });
    for (const payload of [
      { expiresInHours: 0 },
      { expiresInHours: 24 * 31 },
      { expiresAt: new Date(Date.now() - 60_000).toISOString() },
      { expiresAt: new Date(Date.now() + 40 * 24 * 3_600_000).toISOString() },
      { expiresAt: new Date(Date.now() + 3_600_000).toISOString(), expiresInHours: 1 },
      { pinned: 'yes' },
      { other: 1 },
    ]) {
      const response = await post(article.id, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json()).toHaveProperty('code');
    }
    const at = new Date(Date.now() + 3 * 3_600_000);
    const exact = await post(article.id, { expiresAt: at.toISOString() });
    expect(exact.statusCode).toBe(201);
    expect(new Date(exact.json().expiresAt).getTime()).toBe(at.getTime());

    const missing = '00000000-0000-4000-8000-000000000000';
    expect((await post(missing, {})).statusCode).toBe(404);
    const other = await insertArticle(db, { status: 'draft' });
    const wrongArticle = await app.inject({
      method: 'DELETE',
      url: `/api/v1/article/${other.id}/preview-links/${first.id}`,
      headers: bearer(admin.token),
    });
    expect(wrongArticle.statusCode).toBe(404);
    expect((await preview(first.token)).statusCode).toBe(200);
    const publisher = await insertPublisher(app, db);
    expect((await post(article.id, {}, publisher.token)).statusCode).toBe(403);
    expect(
      (await app.inject({ method: 'GET', url: `/api/v1/article/${article.id}/preview-links` })).statusCode,
    ).toBe(401);
  });
});

describe('rate limit', () => {
  it('counts previews per caller address in the client budget, refused tokens included', async () => {
    const limited = await createTestApp({ env: { RATE_LIMIT_CLIENT: '2/1m' } });
    try {
      const article = await insertArticle(limited.db, { status: 'draft' });
      const { token } = await createPreviewLink(limited.db, article.id, { createdBy: null });
      const from = (remoteAddress: string, path: string) =>
        limited.app.inject({ method: 'GET', url: `/api/v1/client/preview/${path}`, remoteAddress });
      expect((await from('10.9.0.1', token)).statusCode).toBe(200);
      expect((await from('10.9.0.1', `npv_${'D'.repeat(43)}`)).statusCode).toBe(404);
      const refused = await from('10.9.0.1', token);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED' });
      expect(refused.headers['cache-control']).toBe('no-store');
      expect((await from('10.9.0.2', token)).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
