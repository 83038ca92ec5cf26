// A child site's program using the packed SDK as any npm package (packages/sdk/test/sdk-package.test.ts
// installs the tarball next to it, type-checks it under NodeNext and Bundler resolution and runs it in Node).
import {
  type ChangeEvent,
  type ClientArticle,
  createNewsroomClient,
  NewsroomApiError,
  unwrap,
  verifyWebhook,
  type WebhookEvent,
} from '@newsroom/sdk';

declare const process: { env: Record<string, string | undefined> };

const newsroom = createNewsroomClient({
  baseUrl: process.env.NEWSROOM_URL ?? '',
  apiKey: process.env.NEWSROOM_API_KEY ?? '',
});

const latest = await newsroom.page('/api/v1/client/posts', { limit: 2, fields: ['slug', 'title'] });
const slug = latest.data[0]?.slug ?? '';
const article: ClientArticle = await newsroom.article(slug);
// @ts-expect-error: body was not asked for
(await newsroom.article(slug, { fields: ['title'] })).body;
let missing = 0;
try {
  await unwrap(newsroom.api.GET('/api/v1/client/article/{slug}', { params: { path: { slug: 'nope' } } }));
} catch (error) {
  if (error instanceof NewsroomApiError) missing = error.status;
}

// A child site's draft-mode route: the editor's preview token opens the draft (no key needed).
const preview: ClientArticle = await newsroom.preview(process.env.NEWSROOM_PREVIEW_TOKEN ?? '');

const walked: string[] = [];
for await (const { slug } of newsroom.pages('/api/v1/client/posts', { limit: 2, fields: ['slug'] })) {
  walked.push(slug);
}
// @ts-expect-error: a feed is not a JSON list (syndication('rss') reads it as text)
newsroom.pages('/api/v1/client/feed.xml');
const rss: string = await newsroom.syndication('rss');

const events: Array<ChangeEvent['type']> = [];
for await (const event of newsroom.changes({ follow: false })) events.push(event.type);

let rejected = false;
try {
  const event: WebhookEvent = verifyWebhook(
    { 'webhook-id': 'evt_1' },
    '{}',
    'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  );
  void event;
} catch {
  rejected = true;
}

console.log(
  JSON.stringify({
    title: article.title,
    preview: preview.title,
    missing,
    walked,
    rss: rss.slice(0, 38),
    events,
    rejected,
  }),
);
