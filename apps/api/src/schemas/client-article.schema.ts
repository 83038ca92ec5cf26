import { type Static, Type } from 'typebox';
import { DateTimeSchema } from './date-time.schema';
import { PageQuerySchema } from './pagination.schema';

const NullableString = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

/** A published article as child sites receive it. */
export const ClientArticleSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    title: Type.String(),
    slug: Type.String(),
    body: Type.String(),
    tags: Type.Array(Type.String()),
    category: NullableString('category'),
    section: NullableString('section'),
    thumbnail: NullableString('image URL'),
    image: NullableString('image URL'),
    hostSites: Type.Array(Type.String(), { description: 'slugs of the child sites the article appears on' }),
    isAggregated: Type.Boolean({ description: 'true for articles imported from a publisher feed' }),
    source: NullableString("the publisher's display name (aggregated articles only)"),
    sourceUrl: NullableString('URL of the original article (aggregated articles only)'),
    publishedAt: DateTimeSchema,
    updatedAt: DateTimeSchema,
  },
  { title: 'ClientArticle' },
);
export type ClientArticleBody = Static<typeof ClientArticleSchema>;

const keyQuery = {
  api_key: Type.Optional(
    Type.String({
      maxLength: 256,
      description: 'the API key, when it cannot be sent as the x-api-key header',
    }),
  ),
};
const siteQuery = {
  site: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'network key: only this site (slug); a site key may name only its own site',
    }),
  ),
};
const filter = (description: string) =>
  Type.Optional(Type.String({ minLength: 1, maxLength: 200, description }));

/** Query of the paginated client listings (posts, partner articles). */
export const ClientListingQuerySchema = Type.Object(
  {
    ...PageQuerySchema.properties,
    ...siteQuery,
    tag: filter('only articles with this tag'),
    category: filter('only articles in this category'),
    section: filter('only articles in this section'),
    ...keyQuery,
  },
  { additionalProperties: false },
);

export const ClientScopeQuerySchema = Type.Object(
  { ...siteQuery, ...keyQuery },
  { additionalProperties: false },
);

export const ClientSlugParamsSchema = Type.Object({ slug: Type.String({ minLength: 1, maxLength: 200 }) });

export const NotModifiedSchema = Type.Null({
  description: 'Not modified: the ETag in If-None-Match is current',
});
