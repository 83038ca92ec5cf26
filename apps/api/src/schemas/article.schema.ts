import { type ArticleStatus, maxReviewReasonLength } from '@newsroom/domain';
import { type Static, Type } from 'typebox';
import {
  articleFieldInputProperties,
  articleFieldProperties,
  CorrectionInputSchema,
} from './article-fields.schema';
import { DateTimeSchema } from './date-time.schema';
import { PageQuerySchema, PaginationSchema } from './pagination.schema';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);
const DateTime = DateTimeSchema;

export const maxTitleLength = 300;
export const maxBodyLength = 200_000;
export const maxTags = 30;
export const maxTagLength = 60;
export const maxHostSites = 50;

export const ArticleStatusSchema = Type.Union(
  [Type.Literal('draft'), Type.Literal('pending'), Type.Literal('published'), Type.Literal('rejected')],
  {
    description:
      'draft -> published (publish/unpublish); pending -> published | rejected (approve/reject); back to pending from a review decision (back-to-pending)',
  },
);

const TitleSchema = Type.String({
  minLength: 1,
  maxLength: maxTitleLength,
  pattern: '\\S',
  description: 'not blank',
});
const BodySchema = Type.String({
  maxLength: maxBodyLength,
  description: 'HTML or text, at most 200,000 characters',
});
const TagsSchema = Type.Array(Type.String({ minLength: 1, maxLength: maxTagLength }), {
  maxItems: maxTags,
  description: 'trimmed and de-duplicated (case-insensitively) when stored',
});
const LabelSchema = Nullable(Type.String({ minLength: 1, maxLength: 100 }));
const ImageUrlSchema = Nullable(
  Type.String({
    format: 'uri',
    pattern: '^https?://',
    maxLength: 2048,
    description: 'an http(s) URL, e.g. the url returned by POST /api/v1/sign-storage',
  }),
);
const siteSlugPattern = '^[a-z0-9]+(?:-[a-z0-9]+)*$';
export const SiteSlugSchema = Type.String({ minLength: 1, maxLength: 63, pattern: siteSlugPattern });
const HostSitesSchema = Type.Array(SiteSlugSchema, {
  maxItems: maxHostSites,
  description: 'child site slugs',
});
const ArticleSlugSchema = Type.String({
  minLength: 1,
  maxLength: 120,
  pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$',
  description: 'lower-case ASCII words joined by dashes; unique among articles',
});

export const ArticleSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    title: Type.String(),
    slug: Type.String(),
    body: Type.String(),
    tags: Type.Array(Type.String()),
    category: Nullable(Type.String()),
    section: Nullable(Type.String()),
    thumbnail: Nullable(Type.String()),
    image: Nullable(Type.String()),
    ...articleFieldProperties,
    hostSites: Type.Array(Type.String(), { description: 'slugs of the child sites the article appears on' }),
    status: ArticleStatusSchema,
    isAggregated: Type.Boolean({ description: 'true for articles imported from a feed' }),
    source: Nullable(Type.String({ description: "imported articles: the publisher's display name" })),
    sourceUrl: Nullable(Type.String({ description: 'imported articles: URL of the original' })),
    rssFeedGuid: Nullable(Type.String({ description: 'imported articles: the feed item guid' })),
    // imported articles: the feed item's own date, when it had one
    sourcePublishedAt: Type.Optional(Nullable(DateTime)),
    publishedAt: Nullable(DateTime),
    // when an approve or reject made the current status; null otherwise
    reviewedAt: Nullable(DateTime),
    reviewReason: Nullable(
      Type.String({
        description:
          'the reason given with the review decision (approve, reject, send back), shown to the publisher or contributor',
      }),
    ),
    createdBy: Type.Optional(
      Nullable(Type.String({ format: 'uuid', description: 'the staff user who created it by hand' })),
    ),
    submittedBy: Type.Optional(
      Nullable(Type.String({ format: 'uuid', description: 'who submitted it for review' })),
    ),
    embargoUntil: Nullable(
      Type.Unsafe<Date>({
        ...DateTime,
        description:
          'the article appears on no child-site route before this time (UTC); null when not embargoed (publishing lifts it)',
      }),
    ),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  { title: 'Article' },
);

export type Article = Static<typeof ArticleSchema>;

/** Response headers of every route that answers one article (documented in OpenAPI). */
const ArticleVersionHeaders = {
  etag: {
    type: 'string',
    description:
      "the article's version, a strong validator (its row version, quoted); send it back in If-Match to save only if nobody changed the article since",
  },
};

/** An article answered with its ETag header. */
export const VersionedArticleResponseSchema = { ...ArticleSchema, headers: ArticleVersionHeaders };

/** The optional If-Match header of a compare-and-set edit. */
export const IfMatchHeadersSchema = Type.Object({
  'if-match': Type.Optional(
    Type.String({
      maxLength: 1000,
      description:
        'the ETag of the version the edit was made on; another version -> 412 ARTICLE_CHANGED and nothing is written. `*` matches any version',
    }),
  ),
});

/** `?autosave=true`: the editor's automatic save (its revisions collapse: one per person per 5 minutes). */
export const EditArticleQuerySchema = Type.Object({
  autosave: Type.Optional(
    Type.Boolean({
      description:
        "the dashboard's automatic save: recorded as source 'autosave'; one person's autosaves within 5 minutes collapse into one revision",
    }),
  ),
  reason: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 500,
      description: "why (e.g. 'correction: the figure was wrong'), kept with the edit's revision",
    }),
  ),
});

/** Listings leave the body out; GET /article/:id has it. */
export const ArticleSummarySchema = Type.Omit(ArticleSchema, ['body'], { title: 'ArticleSummary' });

export type ArticleSummary = Static<typeof ArticleSummarySchema>;

export const ReviewReasonSchema = Type.String({
  maxLength: maxReviewReasonLength,
  description: `optional, at most ${maxReviewReasonLength} characters, shown to the publisher with the decision; trimmed, blank is none`,
});

/** The optional body of approve and reject. */
export const ReviewDecisionBodySchema = Type.Object(
  { reason: Type.Optional(Nullable(ReviewReasonSchema)) },
  { additionalProperties: false, title: 'ReviewDecision' },
);
export type ReviewDecisionBody = Static<typeof ReviewDecisionBodySchema>;

export const ArticleIdParamsSchema = Type.Object({ id: Type.String({ format: 'uuid' }) });

export const CreateArticleBodySchema = Type.Object(
  {
    title: TitleSchema,
    body: Type.Optional(BodySchema),
    tags: Type.Optional(TagsSchema),
    category: Type.Optional(LabelSchema),
    section: Type.Optional(LabelSchema),
    thumbnail: Type.Optional(ImageUrlSchema),
    image: Type.Optional(ImageUrlSchema),
    ...articleFieldInputProperties,
    hostSites: Type.Optional(HostSitesSchema),
  },
  { additionalProperties: false },
);
export type CreateArticleBody = Static<typeof CreateArticleBodySchema>;

export const EditArticleBodySchema = Type.Object(
  {
    title: Type.Optional(TitleSchema),
    slug: Type.Optional(ArticleSlugSchema),
    body: Type.Optional(BodySchema),
    tags: Type.Optional(TagsSchema),
    category: Type.Optional(LabelSchema),
    section: Type.Optional(LabelSchema),
    thumbnail: Type.Optional(ImageUrlSchema),
    image: Type.Optional(ImageUrlSchema),
    ...articleFieldInputProperties,
    correction: Type.Optional(CorrectionInputSchema),
  },
  { additionalProperties: false, minProperties: 1, description: 'any of the fields; at least one' },
);
export type EditArticleBody = Static<typeof EditArticleBodySchema>;

export const HostSitesBodySchema = Type.Object(
  {
    hostSites: Type.Array(SiteSlugSchema, {
      maxItems: maxHostSites,
      description: 'the complete new set of host sites, by slug; [] detaches the article from every site',
    }),
  },
  { additionalProperties: false },
);

const PublisherIdFilterSchema = Type.String({
  format: 'uuid',
  description: "only the publisher's imported articles",
});

export const ArticleListQuerySchema = Type.Object(
  {
    ...PageQuerySchema.properties,
    status: Type.Optional(ArticleStatusSchema),
    site: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 63,
        pattern: siteSlugPattern,
        description: 'only articles hosted on this child site (by slug)',
      }),
    ),
    origin: Type.Optional(
      Type.Union([Type.Literal('manual'), Type.Literal('imported')], {
        description: 'written by hand, or imported from a feed',
      }),
    ),
    publisherId: Type.Optional(PublisherIdFilterSchema),
    tag: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: maxTagLength,
        description: 'articles carrying this tag (exact, case-insensitive)',
      }),
    ),
    q: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'case-insensitive substring of the title' }),
    ),
  },
  { additionalProperties: false },
);
export type ArticleListQuery = Static<typeof ArticleListQuerySchema>;

export const ArticleCountsSchema = Type.Object(
  {
    draft: Type.Integer(),
    pending: Type.Integer(),
    published: Type.Integer(),
    rejected: Type.Integer(),
    total: Type.Integer(),
  },
  { description: "articles per status under the list's other filters (its status filter ignored)" },
);

export const ArticleListResponseSchema = Type.Object(
  {
    data: Type.Array(ArticleSummarySchema),
    meta: Type.Object({ pagination: PaginationSchema, counts: ArticleCountsSchema }),
  },
  { title: 'ArticleList' },
);
export type ArticleListResponse = Static<typeof ArticleListResponseSchema>;

export const PendingQuerySchema = Type.Object(
  { ...PageQuerySchema.properties, publisherId: Type.Optional(PublisherIdFilterSchema) },
  { additionalProperties: false },
);
export type PendingQuery = Static<typeof PendingQuerySchema>;

// The schema's statuses and the domain's must not drift apart.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const statusesMatch: Same<Static<typeof ArticleStatusSchema>, ArticleStatus> = true;
void statusesMatch;
