/** Example bodies of the client operations, added to the document (media type application/json). */
const article = {
  id: '0b6e2b1e-8f0c-4a59-9c43-1f0a4c1d2e3f',
  title: 'Harbour bridge reopens',
  slug: 'harbour-bridge-reopens',
  excerpt: 'Traffic is back on the harbour bridge.',
  body: '<p>Traffic is back on the harbour bridge.</p>',
  tags: ['Traffic', 'city'],
  tagObjects: [
    { name: 'Traffic', slug: 'traffic' },
    { name: 'city', slug: 'city' },
  ],
  category: 'news',
  section: 'local',
  thumbnail: 'https://media.example.com/uploads/2026/11/bridge-small.jpg',
  image: 'https://media.example.com/uploads/2026/11/bridge.jpg',
  hostSites: ['metro'],
  url: 'https://metro.example.com/news/harbour-bridge-reopens',
  isAggregated: false,
  source: null,
  sourceUrl: null,
  sourcePublishedAt: null,
  publishedAt: '2026-11-20T12:00:00.000Z',
  updatedAt: '2026-11-20T12:05:00.000Z',
};
const imported = {
  ...article,
  id: '5d1c7a4e-2b8f-4e0a-9d6b-3c2f1e0a9b8c',
  title: 'Council approves new tram line',
  slug: 'council-approves-new-tram-line',
  url: 'https://metro.example.com/news/council-approves-new-tram-line',
  excerpt: 'The council approved the tram line on Thursday.',
  body: '<p>The vote passed 31 to 12.</p>',
  tags: ['transport'],
  tagObjects: [{ name: 'transport', slug: 'transport' }],
  category: null,
  section: null,
  thumbnail: null,
  image: null,
  isAggregated: true,
  source: 'Daily Planet',
  sourceUrl: 'https://planet.example/tram-line',
  sourcePublishedAt: '2026-11-20T09:30:00.000Z',
};
const page = (data: unknown[]) => ({
  data,
  meta: { pagination: { page: 1, limit: 20, pages: 1, total: data.length, next: null, prev: null } },
});
const invalidKey = {
  statusCode: 401,
  code: 'INVALID_API_KEY',
  error: 'Unauthorized',
  message: 'Missing, invalid or revoked API key',
};
const siteForbidden = {
  statusCode: 403,
  code: 'SITE_FORBIDDEN',
  error: 'Forbidden',
  message: 'This key reads only its own site',
};

/** By operationId, then status. Every client operation also gets the 401 and 403 examples. */
export const clientExamples: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  listClientArticles: { 200: page([article, imported]) },
  listClientPartnerArticles: { 200: page([imported]) },
  getClientArticle: {
    200: article,
    404: {
      statusCode: 404,
      code: 'ARTICLE_NOT_FOUND',
      error: 'Not Found',
      message: 'article no-such-slug not found',
    },
  },
  streamAllClientArticles: {
    200: {
      data: [article, imported],
      meta: { pagination: { page: 1, limit: 2, pages: 1, total: 2, next: null, prev: null } },
    },
  },
  listClientTags: {
    200: {
      data: [
        { name: 'Traffic', slug: 'traffic', count: 12 },
        { name: 'New York', slug: 'new-york', count: 3 },
      ],
    },
  },
  getClientSite: {
    200: {
      id: '7c0d8a52-51a4-4b8e-8d7b-0f3e5b6a1c2d',
      slug: 'metro',
      name: 'Metro Daily',
      domain: 'metro.example.com',
      language: 'en',
      articleUrlTemplate: 'https://{domain}/news/{slug}',
      publicBaseUrl: 'https://metro.example.com',
      allowedOrigins: ['https://metro.example.com'],
      feeds: {
        rss: 'https://metro.example.com/feed.xml',
        jsonFeed: 'https://metro.example.com/feed.json',
        sitemap: 'https://metro.example.com/sitemap.xml',
        newsSitemap: 'https://metro.example.com/sitemap-news.xml',
      },
    },
  },
  getClientPreview: {
    200: article,
    404: {
      statusCode: 404,
      code: 'PREVIEW_NOT_FOUND',
      error: 'Not Found',
      message: 'No such preview link, or it has expired or been revoked',
    },
  },
  listClientCategories: { 200: { data: [{ name: 'News', slug: 'news', count: 40 }] } },
  listClientSections: { 200: { data: [{ name: 'Local', slug: 'local', count: 25 }] } },
  listClientChanges: {
    200: {
      data: [
        {
          cursor: 'MTo3NDEyOjBiNmUyYjFlLThmMGMtNGE1OS05YzQzLTFmMGE0YzFkMmUzZg',
          type: 'upsert',
          id: article.id,
          slug: article.slug,
          article,
        },
        {
          cursor: 'MTo3NDE1OjVkMWM3YTRlLTJiOGYtNGUwYS05ZDZiLTNjMmYxZTBhOWI4Yw',
          type: 'delete',
          id: imported.id,
          slug: imported.slug,
        },
      ],
      meta: { next: 'MTo3NDE1OjVkMWM3YTRlLTJiOGYtNGUwYS05ZDZiLTNjMmYxZTBhOWI4Yw', hasMore: false },
    },
    410: {
      statusCode: 410,
      code: 'CURSOR_EXPIRED',
      error: 'Gone',
      message:
        'Changes after this cursor are past retention: read /client/all again, then follow /client/changes from a new cursor',
    },
  },
};

interface Operation {
  operationId?: string;
  responses?: Record<string, { content?: Record<string, { example?: unknown }> }>;
}

/** Sets the examples of a client operation's JSON responses that have none yet. */
export function addClientExamples(path: string, operation: Operation): void {
  if (!path.startsWith('/api/v1/client/')) return;
  const examples = { 401: invalidKey, 403: siteForbidden, ...clientExamples[operation.operationId ?? ''] };
  for (const [status, example] of Object.entries(examples)) {
    const media = operation.responses?.[status]?.content?.['application/json'];
    if (media && media.example === undefined) media.example = example;
  }
}
