import { type Static, Type } from 'typebox';
import {
  ClientBylineSchema,
  ClientCorrectionSchema,
  ClientImageMetaSchema,
  ClientRenditionsSchema,
} from './client-article-fields.schema';
import { DateTimeSchema } from './date-time.schema';
import { ClientPaginationMetaSchema, PageQuerySchema, paginatedAs } from './pagination.schema';
import { NewsArticleStructuredDataSchema } from './structured-data.schema';

const NullableString = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

/** A tag of an article: as written, and its slug (lower case; runs of other than letters and digits: '-'). */
export const ClientTagSchema = Type.Object(
  { name: Type.String(), slug: Type.String() },
  { title: 'ClientTag' },
);

/** A published article as child sites receive it. */
export const ClientArticleSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    title: Type.String(),
    slug: Type.String(),
    excerpt: Type.String({
      description:
        "plain text, at most 300 characters: the feed item's summary for imported articles, else the first paragraph",
    }),
    standfirst: NullableString('plain text shown under the headline (the dek); null: none'),
    bylines: Type.Array(ClientBylineSchema, { description: 'the authors, in print order' }),
    body: Type.String(),
    tags: Type.Array(Type.String(), {
      description: 'tags as written (kept for compatibility; see tagObjects)',
    }),
    tagObjects: Type.Array(ClientTagSchema, {
      description: 'the same tags with their slugs, the values the `tag` filter takes',
    }),
    category: NullableString('category'),
    section: NullableString('section'),
    thumbnail: NullableString('image URL'),
    thumbnailMeta: Type.Union([ClientImageMetaSchema, Type.Null()], {
      description: "the thumbnail's alt text, caption, credit, size and focal point; null: none known",
    }),
    image: NullableString('image URL'),
    imageMeta: Type.Union([ClientImageMetaSchema, Type.Null()], {
      description: "the image's alt text, caption, credit, size and focal point; null: none known",
    }),
    renditions: Type.Union([ClientRenditionsSchema, Type.Null()], {
      description:
        'signed imgproxy crops (16:9, 4:3, 1:1 around the focal point, at 480, 960 and 1440 px wide) of thumbnail and image (null: no such picture); null when the server has no image proxy configured (IMGPROXY_URL, IMGPROXY_KEY, IMGPROXY_SALT)',
    }),
    hostSites: Type.Array(Type.String(), { description: 'slugs of the child sites the article appears on' }),
    url: Type.Optional(
      Type.Union([Type.String({ format: 'uri' }), Type.Null()], {
        description:
          "reads scoped to one site (a site key, or the network key with ?site=): the article's canonical URL on that site, from its articleUrlTemplate (null: the site has none)",
      }),
    ),
    urls: Type.Optional(
      Type.Record(Type.String(), Type.String({ format: 'uri' }), {
        description:
          'network-wide reads (the network key without ?site=) and webhook payloads: the canonical URL on each host site that has an articleUrlTemplate, by site slug',
      }),
    ),
    isAggregated: Type.Boolean({ description: 'true for articles imported from a publisher feed' }),
    source: NullableString("the publisher's display name (aggregated articles only)"),
    sourceUrl: NullableString('URL of the original article (aggregated articles only)'),
    sourcePublishedAt: Type.Union([DateTimeSchema, Type.Null()], {
      description: "the feed item's own date (aggregated articles that had one; else null)",
    }),
    publishedAt: DateTimeSchema,
    updatedAt: DateTimeSchema,
    corrections: Type.Array(ClientCorrectionSchema, {
      description: 'published corrections, oldest first; each one also bumped updatedAt',
    }),
    structuredData: Type.Optional(NewsArticleStructuredDataSchema),
  },
  { title: 'ClientArticle' },
);
export type ClientArticleBody = Static<typeof ClientArticleSchema>;

/**
 * An article of a listing asked with `fields=`: only the fields named, so every property is optional. A
 * listing's items are a `ClientArticle`, or this with `fields=` (the document cannot tie a shape to a query
 * parameter; a validating client accepts both).
 */
export const ClientArticleFieldsSchema = Type.Partial(ClientArticleSchema, {
  title: 'ClientArticleFields',
  description: 'an article with only the fields `fields=` named',
});

/** One item of a client listing: the whole article, or with `fields=` the fields named. */
export const ClientListedArticleSchema = Type.Union([ClientArticleSchema, ClientArticleFieldsSchema]);

/** A page of a client listing, `{ data, meta: { pagination } }`. */
export const ClientArticlePageSchema = paginatedAs(
  'ClientArticlePage',
  ClientListedArticleSchema,
  ClientPaginationMetaSchema,
);

/** The fields `fields=` may name. */
export const clientArticleFields = Object.keys(ClientArticleSchema.properties) as Array<
  keyof ClientArticleBody
>;

/** What `include=` may add to the article's usual fields (not written unless asked for). */
export const clientArticleExtras = ['structuredData'] as const;

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
const filter = (description: string, maxLength = 200) =>
  Type.Optional(Type.String({ minLength: 1, maxLength, description }));
const instant = (description: string) =>
  Type.Optional(
    Type.String({
      format: 'iso-date-time-or-date',
      maxLength: 40,
      description: `${description}: an ISO 8601 date (2026-11-23, midnight UTC) or date-time (2026-11-23T08:00:00Z; no zone: UTC)`,
    }),
  );

/** The filters, search and sparse fieldset every client listing takes (posts, partner articles, all). */
const listingFilters = {
  tag: filter(
    'only articles with this tag, or with any of a comma-separated list; compared by slug, so `Heroes`, `heroes` and a tag slug all match',
    1000,
  ),
  category: filter('only articles in this category (case-insensitive)'),
  section: filter('only articles in this section (case-insensitive)'),
  source: filter(
    'only articles imported from this publisher: the slug of its name (e.g. `the-daily-planet`)',
  ),
  author: filter(
    'only articles with this author among their bylines: the name or its slug (e.g. `Ann Lee` or `ann-lee`)',
  ),
  aggregated: Type.Optional(
    Type.Boolean({ description: 'true: only articles imported from feeds; false: only hand-written ones' }),
  ),
  publishedAfter: instant('only articles published at or after this instant'),
  publishedBefore: instant('only articles published before this instant'),
  q: filter(
    'full-text search over title (weighted higher) and body, web-search syntax (`"exact phrase"`, `or`, `-word`); best match first, then newest',
    500,
  ),
  include: Type.Optional(
    Type.Literal('structuredData', {
      description:
        'add `structuredData` (a schema.org NewsArticle, JSON-LD) to each article; reads scoped to one site only (the network key names one with ?site=)',
    }),
  ),
  fields: filter(
    `only these article fields, comma-separated (e.g. \`id,slug,title,excerpt,thumbnail,publishedAt\`); an unknown field is a 400. Fields: ${clientArticleFields.join(', ')}`,
    1000,
  ),
};

/** Query of the paginated client listings (posts, partner articles). */
export const ClientListingQuerySchema = Type.Object(
  {
    ...PageQuerySchema.properties,
    after: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 128,
        description:
          'a list cursor (meta.pagination.nextCursor of the page before): the page holds the articles after ' +
          'it, so a walk neither repeats nor skips while articles are published; not with page or q',
      }),
    ),
    ...siteQuery,
    ...listingFilters,
    ...keyQuery,
  },
  { additionalProperties: false },
);
export type ClientListingQuery = Static<typeof ClientListingQuerySchema>;

/** Query of `/all`: the listings' filters, without pages; `format=array` for the old bare-array answer. */
export const ClientAllQuerySchema = Type.Object(
  {
    ...siteQuery,
    ...listingFilters,
    format: Type.Optional(
      Type.Union([Type.Literal('wrapped'), Type.Literal('array')], {
        default: 'wrapped',
        description:
          '`wrapped` (default): `{ data, meta }` like the paginated lists; `array`: a bare JSON array (the answer before issue 16, for clients not yet updated)',
      }),
    ),
    ...keyQuery,
  },
  { additionalProperties: false },
);
export type ClientAllQuery = Static<typeof ClientAllQuerySchema>;

export const ClientScopeQuerySchema = Type.Object(
  { ...siteQuery, ...keyQuery },
  { additionalProperties: false },
);

/** Query of `/article/:slug`: the scope, and the sparse fieldset and extras of the listings. */
export const ClientArticleQuerySchema = Type.Object(
  { ...siteQuery, include: listingFilters.include, fields: listingFilters.fields, ...keyQuery },
  { additionalProperties: false },
);

export const ClientSlugParamsSchema = Type.Object({ slug: Type.String({ minLength: 1, maxLength: 200 }) });

export const NotModifiedSchema = Type.Null({
  description: 'Not modified: the ETag in If-None-Match is current',
});
