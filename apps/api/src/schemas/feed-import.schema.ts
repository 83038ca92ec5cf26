import { type Static, Type } from 'typebox';

export const maxFeedUrlLength = 2048;

export const PublisherIdParamsSchema = Type.Object({ id: Type.String({ format: 'uuid' }) });

export const ImportJobSchema = Type.Object({
  jobId: Type.String({ description: 'id of the queued fetch job (the same id while one is still queued)' }),
});

const FeedUrl = Type.String({
  minLength: 1,
  maxLength: maxFeedUrlLength,
  description: 'http(s) address of an RSS or Atom feed',
});

export const TestFeedBodySchema = Type.Object({ feedUrl: FeedUrl }, { additionalProperties: false });

export const AdminTestFeedBodySchema = Type.Object(
  {
    feedUrl: Type.Optional(
      Type.String({ ...FeedUrl, description: "defaults to the publisher's saved feed URL" }),
    ),
  },
  { additionalProperties: false },
);

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

/** One article exactly as the import would create it (before it gets an id and a slug). */
export const PreviewArticleSchema = Type.Object({
  title: Type.String(),
  body: Type.String({ description: 'sanitised HTML' }),
  tags: Type.Array(Type.String()),
  thumbnail: Nullable(Type.String()),
  image: Nullable(Type.String()),
  status: Type.Union(
    [Type.Literal('draft'), Type.Literal('pending'), Type.Literal('published'), Type.Literal('rejected')],
    { description: 'published when the publisher auto-approves, else pending' },
  ),
  isAggregated: Type.Boolean(),
  source: Type.String(),
  sourceUrl: Nullable(Type.String()),
  rssFeedGuid: Type.String(),
  publishedAt: Nullable(Type.String({ format: 'date-time' })),
  sourcePublishedAt: Nullable(Type.String({ format: 'date-time' })),
  hostSites: Type.Array(Type.String()),
});

export const FeedPreviewSchema = Type.Object({
  title: Type.String({ description: "the feed's own title" }),
  items: Type.Array(PreviewArticleSchema, { maxItems: 5 }),
});
export type FeedPreview = Static<typeof FeedPreviewSchema>;
export type PreviewArticle = Static<typeof PreviewArticleSchema>;
