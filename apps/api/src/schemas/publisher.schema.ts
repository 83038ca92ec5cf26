import { maxFeedUrlLength, maxReportMonths } from '@newsroom/domain';
import { type TSchema, Type } from 'typebox';
import { maxTagLength, maxTags } from './article.schema';
import { DateTimeSchema } from './date-time.schema';
import { PageQuerySchema, PaginationSchema } from './pagination.schema';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

// The same limits as article tags: default tags end up on articles.
const Tags = Type.Array(Type.String({ maxLength: maxTagLength }), {
  maxItems: maxTags,
  description: `at most ${maxTags}; stored trimmed, without empty ones or case-insensitive duplicates`,
});
const ArticleStatusSchema = Type.Union([
  Type.Literal('draft'),
  Type.Literal('pending'),
  Type.Literal('published'),
  Type.Literal('rejected'),
]);

export const PublisherIdParamsSchema = Type.Object({ id: Type.String({ format: 'uuid' }) });

const TagMappingSchema = Type.Object(
  {
    from: Type.String({ maxLength: 200, description: 'a category of the source feed (any case)' }),
    to: Nullable(Type.String({ maxLength: 200, description: 'our tag; null drops the category' })),
  },
  { additionalProperties: false },
);

/** The rules as stored and shown (every field present). */
export const ImportRulesSchema = Type.Object({
  includeKeywords: Type.Array(Type.String()),
  excludeKeywords: Type.Array(Type.String()),
  tagMappings: Type.Array(TagMappingSchema),
  maxTags: Type.Integer(),
  defaultCategory: Nullable(Type.String()),
  defaultSection: Nullable(Type.String()),
  maxNewItemsPerFetch: Nullable(Type.Integer()),
});

/**
 * A rules edit: the whole rule set, any field left out takes its default. Types only here; the values
 * are checked by the domain (400 INVALID_IMPORT_RULE naming the rule).
 */
export const ImportRulesInputSchema = Type.Object(
  {
    includeKeywords: Type.Optional(
      Type.Array(Type.String({ maxLength: 200 }), {
        maxItems: 200,
        description: 'import only items with one of these words in the title or text (whole words, any case)',
      }),
    ),
    excludeKeywords: Type.Optional(
      Type.Array(Type.String({ maxLength: 200 }), {
        maxItems: 200,
        description: 'skip items with one of these words in the title or text (whole words, any case)',
      }),
    ),
    tagMappings: Type.Optional(Type.Array(TagMappingSchema, { maxItems: 1000 })),
    maxTags: Type.Optional(Type.Number({ description: 'tags kept per article, 1-20 (default 20)' })),
    defaultCategory: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    defaultSection: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    maxNewItemsPerFetch: Type.Optional(
      Nullable(
        Type.Number({ description: 'new articles per fetch at most (1-1000), oldest first; null: no cap' }),
      ),
    ),
  },
  { additionalProperties: false },
);

export const PublisherSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  email: Nullable(Type.String()),
  feedUrl: Nullable(Type.String()),
  defaultTags: Type.Array(Type.String()),
  defaultHostSites: Type.Array(Type.String(), { description: 'child-site slugs' }),
  approved: Type.Boolean(),
  autoApprove: Type.Boolean(),
  disabled: Type.Boolean(),
  disabledAt: Nullable(DateTimeSchema),
  lastFetchedAt: Nullable(DateTimeSchema),
  lastFailedAt: Nullable(DateTimeSchema),
  lastError: Nullable(
    Type.String({ description: '"<CODE>: <message>" of the last failed fetch; see feedHealth' }),
  ),
  consecutiveFailures: Type.Integer(),
  importRules: ImportRulesSchema,
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
});

export const PublisherStateSchema = Type.Union(
  [Type.Literal('awaiting'), Type.Literal('approved'), Type.Literal('disabled')],
  { description: 'awaiting approval, approved (polled), or disabled (whatever its approval)' },
);

export const FeedHealthSchema = Type.Object({
  lastResult: Type.Union([Type.Literal('never'), Type.Literal('ok'), Type.Literal('failed')], {
    description:
      'the last fetch: never fetched, ok (new items or not modified), failed (gave up after retries)',
  }),
  lastResultAt: Nullable(DateTimeSchema),
  lastFetchedAt: Nullable(DateTimeSchema),
  lastFailedAt: Nullable(DateTimeSchema),
  lastNewItemAt: Nullable(DateTimeSchema),
  lastError: Nullable(
    Type.Object({
      code: Type.String({ description: 'NOT_A_FEED, TIMEOUT, HTTP_STATUS, ...' }),
      message: Type.String({ description: 'what it means, in words' }),
      detail: Type.String({ description: "the fetcher's own text" }),
    }),
  ),
  consecutiveFailures: Type.Integer(),
  itemsLast24h: Type.Integer({ description: 'new articles in the last 24 hours' }),
  itemsLast7d: Type.Integer({ description: 'new articles in the last 7 days' }),
  meanIntervalSeconds: Nullable(
    Type.Number({ description: "usual time between new items (the newest 20 items' own dates)" }),
  ),
  quiet: Type.Boolean({
    description: 'gone quiet: no new item for 3 x the usual interval and at least a day',
  }),
  paused: Type.Union(
    [
      Type.Object({
        at: DateTimeSchema,
        reason: Type.String({ description: 'why, in words' }),
      }),
      Type.Null(),
    ],
    { description: 'set when the feed was paused after 10 failed fetches in a row; resume to fetch again' },
  ),
  gone: Nullable(
    Type.Object(
      {
        since: DateTimeSchema,
        message: Type.String({ description: 'why the feed is no longer fetched, and how to resume' }),
      },
      { description: "set when the feed's server answered 410 Gone: the feed is no longer fetched" },
    ),
  ),
});

export const ArticleCountsSchema = Type.Object({
  draft: Type.Integer(),
  pending: Type.Integer(),
  published: Type.Integer(),
  rejected: Type.Integer(),
  total: Type.Integer(),
});

export const PublisherDetailSchema = Type.Object({
  ...PublisherSchema.properties,
  state: PublisherStateSchema,
  articleCounts: ArticleCountsSchema,
  feedHealth: FeedHealthSchema,
});

export const PublisherListSchema = Type.Object({
  data: Type.Array(PublisherDetailSchema),
  meta: Type.Object({ pagination: PaginationSchema }),
});

export const PublisherListQuerySchema = Type.Object(
  {
    ...PageQuerySchema.properties,
    state: Type.Optional(PublisherStateSchema),
    q: Type.Optional(
      Type.String({ maxLength: 200, description: 'part of the name or login e-mail, any case' }),
    ),
    sort: Type.Union([Type.Literal('newest'), Type.Literal('name')], {
      default: 'newest',
      description: 'newest first (default), or by name',
    }),
    approved: Type.Optional(Type.Boolean()),
    disabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

const Name = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' });

export const CreatePublisherBodySchema = Type.Object(
  {
    name: Name,
    email: Type.String({ maxLength: 254, pattern: '^\\s*[^@\\s]+@[^@\\s]+\\.[^@\\s]+\\s*$' }),
    password: Type.String({ minLength: 12, maxLength: 72, description: '12 characters to 72 bytes' }),
  },
  { additionalProperties: false },
);

export const UpdatePublisherBodySchema = Type.Object(
  {
    name: Type.Optional(Name),
    autoApprove: Type.Optional(Type.Boolean()),
    defaultTags: Type.Optional(Tags),
    defaultHostSites: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 100 })),
    importRules: Type.Optional(ImportRulesInputSchema),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const SaveFeedBodySchema = Type.Object(
  {
    feedUrl: Nullable(
      Type.String({
        maxLength: maxFeedUrlLength,
        pattern: '^\\s*[hH][tT][tT][pP][sS]?://',
        description: 'http(s) address of the RSS/Atom feed; null removes it',
      }),
    ),
    defaultTags: Type.Optional(Tags),
  },
  { additionalProperties: false },
);

const Month = Type.String({ pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$', description: 'YYYY-MM' });

export const ReportQuerySchema = Type.Object(
  { from: Month, to: Month },
  { additionalProperties: false, description: `at most ${maxReportMonths} months, both included` },
);

export const MonthlyReportSchema = Type.Object({
  from: Type.String(),
  to: Type.String(),
  months: Type.Array(Type.String(), { description: 'YYYY-MM, in order' }),
  publishers: Type.Array(
    Type.Object({
      id: Type.String({ format: 'uuid' }),
      name: Type.String(),
      counts: Type.Array(Type.Integer(), { description: 'articles created in each of `months` (UTC)' }),
      total: Type.Integer(),
    }),
  ),
});

export const PublisherArticleSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  title: Type.String(),
  slug: Type.String(),
  status: ArticleStatusSchema,
  tags: Type.Array(Type.String()),
  thumbnail: Nullable(Type.String()),
  source: Nullable(Type.String()),
  sourceUrl: Nullable(Type.String()),
  rssFeedGuid: Nullable(Type.String()),
  publishedAt: Nullable(DateTimeSchema),
  // when an administrator approved or rejected it; null when no review decided its current status
  reviewedAt: Nullable(DateTimeSchema),
  reviewReason: Nullable(
    Type.String({ description: "the administrator's reason for that decision, when one was given" }),
  ),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
});

export const PublisherArticlesQuerySchema = Type.Object(
  { ...PageQuerySchema.properties, status: Type.Optional(ArticleStatusSchema) },
  { additionalProperties: false },
);

export const OwnArticlesQuerySchema = PublisherArticlesQuerySchema;

export const OwnArticlesSchema = Type.Object({
  data: Type.Array(PublisherArticleSchema),
  meta: Type.Object({ pagination: PaginationSchema, counts: ArticleCountsSchema }),
});
