import type { ArticleStatus } from '@newsroom/domain';
import { type Static, Type } from 'typebox';
import { DateTimeSchema } from './date-time.schema';
import { PageQuerySchema } from './pagination.schema';

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
  { description: 'draft -> published (publish/unpublish); pending -> published | rejected (approve/reject)' },
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
export const SiteSlugSchema = Type.String({
  minLength: 1,
  maxLength: 63,
  pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$',
});
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
    hostSites: Type.Array(Type.String(), { description: 'slugs of the child sites the article appears on' }),
    status: ArticleStatusSchema,
    isAggregated: Type.Boolean({ description: 'true for articles imported from a feed' }),
    source: Nullable(Type.String({ description: "imported articles: the publisher's display name" })),
    sourceUrl: Nullable(Type.String({ description: 'imported articles: URL of the original' })),
    rssFeedGuid: Nullable(Type.String({ description: 'imported articles: the feed item guid' })),
    publishedAt: Nullable(DateTime),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  { title: 'Article' },
);

/** Listings leave the body out; GET /article/:id has it. */
export const ArticleSummarySchema = Type.Omit(ArticleSchema, ['body'], { title: 'ArticleSummary' });

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

export const ArticleListQuerySchema = Type.Object(
  {
    ...PageQuerySchema.properties,
    status: Type.Optional(ArticleStatusSchema),
    q: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'case-insensitive substring of the title' }),
    ),
  },
  { additionalProperties: false },
);

// The schema's statuses and the domain's must not drift apart.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const statusesMatch: Same<Static<typeof ArticleStatusSchema>, ArticleStatus> = true;
void statusesMatch;
