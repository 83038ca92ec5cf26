import { afterAll, describe, expect, it, vi } from 'vitest';
import { type ChangesPage, followChanges } from './support/change-feed-reader';
import { insertSite, issueSiteKey } from './support/content-fixtures';
import { createDashboardUsers } from './support/dashboard-users';
import { createTestApp } from './support/test-app';

// Issue 32: bylines, standfirst, image metadata and corrections, from the admin API to every client output.
vi.setConfig({ testTimeout: 120_000 });
const testApp = await createTestApp();
const { app, db, close } = testApp;
afterAll(close);
const { adminToken, publisherId } = await createDashboardUsers(testApp);
const metro = await insertSite(db, 'metro');
const metroKey = (await issueSiteKey(db, metro)).key;

type Method = 'GET' | 'POST' | 'PUT';
const call = (method: Method, url: string, payload?: unknown) =>
  app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${adminToken}` },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const client = (url: string) =>
  app.inject({ method: 'GET', url: `/api/v1/client${url}`, headers: { 'x-api-key': metroKey } });

const story = {
  title: 'Harbour bridge reopens',
  body: '<figure><img src="https://cdn.example.com/inline.jpg" alt="Cars on the bridge" width="800" height="450" onerror="x()"><figcaption>Traffic at 7am</figcaption></figure><p>It is open.</p>',
  standfirst: '  The city’s busiest crossing is back after six weeks.  ',
  bylines: [
    { name: 'Ann Lee', url: 'https://metro.example.com/staff/ann-lee' },
    { name: 'Reuters' },
    { name: 'ann lee' },
  ],
  image: 'https://cdn.example.com/bridge.jpg',
  imageMeta: {
    alt: 'The bridge at dusk',
    caption: 'Reopened on Monday',
    credit: 'Photo: Ann Lee',
    width: 1600,
    height: 900,
    focalPoint: { x: 0.3, y: 0.6 },
  },
  hostSites: ['metro'],
};

async function publishedStory(title: string) {
  const created = await call('POST', '/api/v1/article', { ...story, title });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().id as string;
  expect((await call('PUT', `/api/v1/article/publish/${id}`)).statusCode).toBe(200);
  return created.json() as { id: string; slug: string };
}

describe('article fields (admin)', () => {
  it('stores bylines in order (the same name once), a trimmed standfirst and image metadata', async () => {
    const response = await call('POST', '/api/v1/article', story);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({
      bylines: [
        { name: 'Ann Lee', url: 'https://metro.example.com/staff/ann-lee', userId: null },
        { name: 'Reuters', url: null, userId: null },
      ],
      standfirst: 'The city’s busiest crossing is back after six weeks.',
      imageMeta: { ...story.imageMeta },
      thumbnailMeta: null,
      corrections: [],
      needsAltText: false,
    });
    // The body keeps its figure, caption and image size; the handler attribute is gone.
    expect(response.json().body).toBe(
      '<figure><img src="https://cdn.example.com/inline.jpg" alt="Cars on the bridge" width="800" height="450" /><figcaption>Traffic at 7am</figcaption></figure><p>It is open.</p>',
    );
  });

  it('refuses a picture without alt text with a 400 naming the field', async () => {
    const created = await call('POST', '/api/v1/article', { title: 'No alt', image: story.image });
    expect(created.statusCode).toBe(400);
    expect(created.json()).toMatchObject({
      code: 'IMAGE_ALT_REQUIRED',
      message: expect.stringContaining('imageMeta.alt'),
    });
    const blank = await call('POST', '/api/v1/article', {
      title: 'Blank alt',
      thumbnail: story.image,
      thumbnailMeta: { alt: '   ' },
    });
    expect(blank.json()).toMatchObject({
      code: 'IMAGE_ALT_REQUIRED',
      message: expect.stringContaining('thumbnailMeta.alt'),
    });

    const ok = (await call('POST', '/api/v1/article', { title: 'Alt later' })).json();
    const edit = await call('PUT', `/api/v1/article/${ok.id}`, { image: story.image });
    expect(edit.json()).toMatchObject({ code: 'IMAGE_ALT_REQUIRED' });
    // Metadata alone, then the picture: the alt already stored counts.
    expect(
      (await call('PUT', `/api/v1/article/${ok.id}`, { imageMeta: { alt: 'A bridge' } })).statusCode,
    ).toBe(200);
    const withImage = await call('PUT', `/api/v1/article/${ok.id}`, { image: story.image });
    expect(withImage.statusCode, withImage.body).toBe(200);
    expect(withImage.json()).toMatchObject({ image: story.image, imageMeta: { alt: 'A bridge' } });
  });

  it('bounds focal points, URLs, lengths and staff bylines with 400s', async () => {
    const bad = [
      { imageMeta: { alt: 'x', focalPoint: { x: 1.2, y: 0 } } },
      { imageMeta: { alt: 'x', width: 0 } },
      { bylines: [{ name: 'A', url: 'javascript:alert(1)' }] },
      { bylines: [{ name: 'A', url: '/relative' }] },
      { bylines: [{ name: '   ' }] },
      { standfirst: 'x'.repeat(501) },
      { imageMeta: { alt: 'x'.repeat(1001) } },
      { bylines: [{ name: 'Ghost', userId: '00000000-0000-4000-8000-000000000000' }] },
    ];
    for (const fields of bad) {
      const response = await call('POST', '/api/v1/article', { title: 'Bad', ...fields });
      expect(response.statusCode, JSON.stringify(fields)).toBe(400);
    }
  });

  it('takes a staff user as a byline, its name as given', async () => {
    const [admin] = await db.selectFrom('users').select('id').where('role', '=', 'admin').execute();
    const response = await call('POST', '/api/v1/article', {
      title: 'Staff byline',
      bylines: [{ name: 'The Editor', userId: admin?.id }],
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().bylines).toEqual([{ name: 'The Editor', url: null, userId: admin?.id }]);
  });

  it("refuses a publisher's account as a staff byline (400 naming the field)", async () => {
    const { id } = await db
      .selectFrom('users')
      .select('id')
      .where('publisher_id', '=', publisherId)
      .executeTakeFirstOrThrow();
    const response = await call('POST', '/api/v1/article', {
      title: 'Publisher byline',
      bylines: [{ name: 'Wire', userId: id }],
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.body).toContain('bylines/0/userId');
  });
});

describe('article fields (client outputs)', () => {
  it('are in the article by slug, in listings, in fields= and filterable by author', async () => {
    const { slug } = await publishedStory('Bridge for readers');
    const article = (await client(`/article/${slug}`)).json();
    expect(article).toMatchObject({
      standfirst: 'The city’s busiest crossing is back after six weeks.',
      bylines: [
        { name: 'Ann Lee', url: 'https://metro.example.com/staff/ann-lee' },
        { name: 'Reuters', url: null },
      ],
      imageMeta: story.imageMeta,
      thumbnailMeta: null,
      corrections: [],
    });
    expect(article.bylines[0]).not.toHaveProperty('userId');

    const sparse = await client('/posts?fields=slug,bylines,standfirst,imageMeta&author=ann-lee');
    expect(sparse.statusCode, sparse.body).toBe(200);
    expect(sparse.json().data).toContainEqual({
      slug,
      standfirst: article.standfirst,
      bylines: article.bylines,
      imageMeta: article.imageMeta,
    });
    const byName = (await client('/posts?author=Reuters&fields=slug')).json().data;
    expect(byName).toContainEqual({ slug });
    expect((await client('/posts?author=Nobody%20Here&fields=slug')).json().data).toEqual([]);
    expect((await client('/posts?author=---')).statusCode).toBe(400);

    const ld = (await client(`/article/${slug}?include=structuredData`)).json().structuredData;
    expect(ld.author).toEqual([
      { '@type': 'Person', name: 'Ann Lee', url: 'https://metro.example.com/staff/ann-lee' },
      { '@type': 'Person', name: 'Reuters' },
    ]);
  });
});

describe('corrections', () => {
  it('go only with a published article', async () => {
    const draft = (await call('POST', '/api/v1/article', { title: 'Draft to correct' })).json();
    const response = await call('PUT', `/api/v1/article/${draft.id}`, {
      title: 'Draft corrected',
      correction: { text: 'Fixed' },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().code).toBe('ARTICLE_NOT_PUBLISHED');
    // Nothing of the edit was written.
    expect((await call('GET', `/api/v1/article/${draft.id}`)).json().title).toBe('Draft to correct');
  });

  it('append a note with who and when, bump updatedAt, reach child sites, JSON-LD, the change feed and an article.corrected webhook', async () => {
    const hook = await call('POST', '/api/v1/webhooks', {
      url: 'https://hooks.example.com/corrections',
      events: ['article.corrected'],
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const { id, slug } = await publishedStory('Bridge with a mistake');
    const before = (await call('GET', `/api/v1/article/${id}`)).json();
    const since = ((await client('/changes')).json() as ChangesPage).meta.next;

    const response = await call('PUT', `/api/v1/article/${id}`, {
      body: '<p>It reopened on Monday, not Sunday.</p>',
      correction: { text: 'An earlier version gave the wrong day of reopening.' },
    });
    expect(response.statusCode, response.body).toBe(200);
    const corrected = response.json();
    expect(corrected.corrections).toEqual([
      {
        text: 'An earlier version gave the wrong day of reopening.',
        at: expect.any(String),
        by: { userId: expect.any(String), name: expect.any(String) },
      },
    ]);
    expect(Date.parse(corrected.updatedAt)).toBeGreaterThanOrEqual(Date.parse(before.updatedAt));

    const read = (await client(`/article/${slug}`)).json();
    expect(read.corrections).toEqual([
      { text: 'An earlier version gave the wrong day of reopening.', at: corrected.corrections[0].at },
    ]);
    const ld = (await client(`/article/${slug}?include=structuredData`)).json().structuredData;
    expect(ld.correction).toEqual([
      {
        '@type': 'CorrectionComment',
        text: 'An earlier version gave the wrong day of reopening.',
        datePublished: corrected.corrections[0].at,
      },
    ]);

    const { items } = await followChanges(client, since, { expected: 1, ids: [id] });
    expect(items).toContainEqual(expect.objectContaining({ type: 'upsert', id, article: read }));

    const events = await db
      .selectFrom('webhook_events')
      .innerJoin('webhook_deliveries', 'webhook_deliveries.event_id', 'webhook_events.id')
      .select(['webhook_events.type', 'webhook_events.body', 'webhook_deliveries.endpoint_id'])
      .where('webhook_events.type', '=', 'article.corrected')
      .execute();
    const mine = events.filter((e) => JSON.parse(e.body).data.id === id);
    expect(mine).toHaveLength(1);
    expect(mine[0]?.endpoint_id).toBe(hook.json().id);
    expect(JSON.parse(mine[0]?.body ?? '{}').data.corrections).toHaveLength(1);
  });
});
