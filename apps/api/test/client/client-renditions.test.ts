import { createHmac } from 'node:crypto';
import { createPreviewLink, relayArticleChanges } from '@newsroom/domain';
import { afterAll, describe, expect, it } from 'vitest';
import { insertArticle, insertSite, issueSiteKey } from '../support/content-fixtures';
import { createDashboardUsers } from '../support/dashboard-users';
import { createTestApp } from '../support/test-app';

// Image renditions in client answers (issue 32): with an image proxy configured, every client answer carries
// signed imgproxy crops of thumbnail and image; without one, `renditions` is null. Each URL is checked against
// imgproxy's documented scheme (HMAC-SHA256 of salt + path with the hex key, URL-safe base64, no padding),
// computed here independently of the signer.
const key = '736563726574';
const salt = '68656c6c6f';
const proxied = await createTestApp({
  env: { IMGPROXY_URL: 'https://img.example.com', IMGPROXY_KEY: key, IMGPROXY_SALT: salt },
});
// A replica of the same database without a proxy: the same article, no renditions.
const plain = await createTestApp({ replicaOf: proxied });
afterAll(async () => {
  await plain.close();
  await proxied.close();
});

const { db } = proxied;
const site = await insertSite(db, 'metro');
const siteKey = (await issueSiteKey(db, site)).key;
const image = 'https://cdn.example.com/2026/bridge.jpg';
const thumbnail = 'https://cdn.example.com/2026/bridge-thumb.png';
const article = await insertArticle(db, { siteIds: [site] });
await db
  .updateTable('articles')
  .set({
    image,
    image_meta: JSON.stringify({
      alt: 'The bridge',
      caption: null,
      credit: null,
      width: 1200,
      height: 800,
      focalPoint: { x: 0.3, y: 0.6 },
    }) as never,
    thumbnail,
  })
  .where('id', '=', article.id)
  .execute();

const read = (app: typeof proxied, url: string) =>
  app.app.inject({ method: 'GET', url: `/api/v1/client${url}`, headers: { 'x-api-key': siteKey } });

interface Source {
  width: number;
  height: number;
  url: string;
}
type PictureRenditions = Record<'16:9' | '4:3' | '1:1', { srcset: string; sources: Source[] }>;

/** Checks one URL against imgproxy's scheme; answers its processing path. */
function verified(url: string, source: string): string {
  expect(url.startsWith('https://img.example.com/')).toBe(true);
  const [, signature, ...rest] = new URL(url).pathname.split('/');
  const path = `/${rest.join('/')}`;
  const expected = createHmac('sha256', Buffer.from(key, 'hex'))
    .update(Buffer.from(salt, 'hex'))
    .update(path)
    .digest('base64url');
  expect(signature).toBe(expected);
  expect(path.endsWith(`/${Buffer.from(source).toString('base64url')}`)).toBe(true);
  return path;
}

function expectRenditions(renditions: PictureRenditions, source: string, gravity: string, widths: number[]) {
  const ratios = { '16:9': 16 / 9, '4:3': 4 / 3, '1:1': 1 };
  for (const [ratio, factor] of Object.entries(ratios) as Array<[keyof PictureRenditions, number]>) {
    const set = renditions[ratio];
    expect(set.sources.map((s) => s.width)).toEqual(widths);
    for (const s of set.sources) {
      expect(s.height).toBe(Math.round(s.width / factor));
      expect(verified(s.url, source)).toMatch(new RegExp(`^/rs:fill:${s.width}:${s.height}:0/${gravity}/`));
    }
    expect(set.srcset).toBe(set.sources.map((s) => `${s.url} ${s.width}w`).join(', '));
  }
}

describe('client answers with an image proxy', () => {
  it('carry signed 16:9, 4:3 and 1:1 crops around the focal point, up to the original width', async () => {
    const answer = (await read(proxied, `/article/${article.slug}`)).json();
    // The image is 1200 px wide: no 1440 px rendition; the thumbnail's width is unknown: every width.
    expectRenditions(answer.renditions.image, image, 'g:fp:0.3:0.6', [480, 960]);
    expectRenditions(answer.renditions.thumbnail, thumbnail, 'g:ce', [480, 960, 1440]);
  });

  it('carry the same renditions in lists, /all, sparse fieldsets and previews', async () => {
    const bySlug = (await read(proxied, `/article/${article.slug}`)).json().renditions;
    const list = (await read(proxied, '/posts')).json().data;
    expect(list[0].renditions).toEqual(bySlug);
    const all = (await read(proxied, '/all?fields=slug,renditions')).json();
    expect((all.data ?? all)[0]).toEqual({ slug: article.slug, renditions: bySlug });
    const link = await createPreviewLink(db, article.id, { createdBy: null });
    const preview = await proxied.app.inject({
      method: 'GET',
      url: `/api/v1/client/preview/${encodeURIComponent(link.token)}`,
    });
    expect(preview.json().renditions).toEqual(bySlug);
  });

  it("carry the same renditions in webhook payloads: the relay's article.updated and article.corrected", async () => {
    const { adminToken } = await createDashboardUsers(proxied);
    const admin = (method: 'POST' | 'PUT', url: string, payload: object) =>
      proxied.app.inject({ method, url, headers: { authorization: `Bearer ${adminToken}` }, payload });
    const endpoint = await admin('POST', '/api/v1/webhooks', {
      url: 'https://hooks.example.com/renditions',
      events: ['article.updated', 'article.corrected'],
    });
    expect(endpoint.statusCode, endpoint.body).toBe(201);
    const edit = await admin('PUT', `/api/v1/article/${article.id}`, {
      standfirst: 'The bridge is open again.',
      correction: { text: 'The bridge opened on Monday, not Sunday.' },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const events = async () =>
      db
        .selectFrom('webhook_deliveries')
        .innerJoin('webhook_events', 'webhook_events.id', 'webhook_deliveries.event_id')
        .select('webhook_events.body')
        .where('webhook_deliveries.endpoint_id', '=', endpoint.json().id)
        .execute();
    // The relay as the worker runs it, with the same image proxy settings (the horizon may hold it a moment).
    for (const deadline = Date.now() + 15_000; (await events()).length < 2 && Date.now() < deadline; ) {
      await relayArticleChanges(db, { imgproxy: proxied.config.imgproxy });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const bodies = (await events()).map((row) => JSON.parse(row.body));
    expect(bodies.map((body) => body.type).sort()).toEqual(['article.corrected', 'article.updated']);
    const bySlug = (await read(proxied, `/article/${article.slug}`)).json().renditions;
    expect(bySlug.image).not.toBeNull();
    for (const body of bodies) expect(body.data.renditions).toEqual(bySlug);
  });

  it("give the JSON-LD the image's 16:9, 4:3 and 1:1 crops at their widest (Google's Article guidance)", async () => {
    const answer = (await read(proxied, `/article/${article.slug}?include=structuredData`)).json();
    const crops = answer.renditions.image as PictureRenditions;
    expect(answer.structuredData.image).toEqual(
      (['16:9', '4:3', '1:1'] as const).map((ratio) => crops[ratio].sources.at(-1)?.url),
    );
    const plainAnswer = (await read(plain, `/article/${article.slug}?include=structuredData`)).json();
    expect(plainAnswer.structuredData.image).toEqual([image, thumbnail]);
  });

  it('are null when no image proxy is configured', async () => {
    const answer = (await read(plain, `/article/${article.slug}`)).json();
    expect(answer.image).toBe(image);
    expect(answer.renditions).toBeNull();
  });
});
