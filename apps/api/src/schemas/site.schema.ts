import { type Static, Type } from 'typebox';
import { SiteSlugSchema } from './article.schema';
import { DateTimeSchema } from './date-time.schema';

const DateTime = DateTimeSchema;

// A DNS host name: dot-separated labels of letters, digits and inner dashes, at least two labels.
const DomainSchema = Type.Union([
  Type.String({
    maxLength: 253,
    pattern: '^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$',
    description: 'host name in lower case, e.g. news.example.com (no scheme, port or path)',
  }),
  Type.Null(),
]);
const NameSchema = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });
const LanguageSchema = Type.String({
  maxLength: 35,
  pattern: '^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$',
  description: 'ISO 639 language code, optionally with a region (en, pt-BR); named by the news sitemap',
});
const ArticleUrlTemplateSchema = Type.Union([
  Type.String({
    maxLength: 500,
    pattern: '^https?://[^\\s]*\\{slug\\}[^\\s]*$',
    description:
      "how the site's public article URLs are built: http(s), with {slug} and optionally {domain}, " +
      'e.g. https://{domain}/news/{slug}; null: no syndication URLs (feeds and sitemaps answer 409)',
  }),
  Type.Null(),
]);

const AllowedOriginsSchema = Type.Array(
  Type.String({
    maxLength: 300,
    pattern: '^https?://[^\\s/?#]+/?$',
    description: 'an http(s) origin: scheme, host and optional port, e.g. https://www.metro.example.com',
  }),
  {
    maxItems: 50,
    description:
      "browser origins whose pages may read the client API with this site's keys (CORS); [] (default): none",
  },
);
const PublicBaseUrlSchema = Type.Union([
  Type.String({
    maxLength: 500,
    pattern: '^https?://[^\\s?#]+$',
    description:
      'where the site serves its feeds and sitemaps from its own domain (<base>/feed.xml, <base>/sitemap.xml); null (default): the origin of articleUrlTemplate',
  }),
  Type.Null(),
]);

export const SiteSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    slug: Type.String({ description: 'the name articles use in hostSites' }),
    name: Type.String(),
    domain: Type.Union([Type.String(), Type.Null()]),
    language: Type.String({ description: 'ISO 639 language code (en, pt-BR)' }),
    articleUrlTemplate: Type.Union([Type.String(), Type.Null()], {
      description: 'how public article URLs are built, e.g. https://{domain}/news/{slug}',
    }),
    allowedOrigins: Type.Array(Type.String(), {
      description: "browser origins whose pages may read the client API with this site's keys (CORS)",
    }),
    publicBaseUrl: Type.Union([Type.String(), Type.Null()], {
      description: 'where the site serves its feeds and sitemaps; null: the origin of articleUrlTemplate',
    }),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  { title: 'Site' },
);
export type Site = Static<typeof SiteSchema>;

export const SiteListItemSchema = Type.Object(
  {
    ...SiteSchema.properties,
    articleCount: Type.Object(
      {
        total: Type.Integer({ description: 'articles linked to the site (deleting the site unlinks them)' }),
        published: Type.Integer({ description: 'of those, published: what its readers see today' }),
      },
      { description: 'articles hosted on the site' },
    ),
  },
  { title: 'SiteListItem' },
);
export type SiteListItem = Static<typeof SiteListItemSchema>;

export const SiteListResponseSchema = Type.Object({ data: Type.Array(SiteListItemSchema) });
export type SiteListResponse = Static<typeof SiteListResponseSchema>;

export const SiteIdParamsSchema = Type.Object({ id: Type.String({ format: 'uuid' }) });

export const CreateSiteBodySchema = Type.Object(
  {
    slug: SiteSlugSchema,
    name: NameSchema,
    domain: Type.Optional(DomainSchema),
    language: Type.Optional(LanguageSchema),
    articleUrlTemplate: Type.Optional(ArticleUrlTemplateSchema),
    allowedOrigins: Type.Optional(AllowedOriginsSchema),
    publicBaseUrl: Type.Optional(PublicBaseUrlSchema),
  },
  { additionalProperties: false },
);

export const EditSiteBodySchema = Type.Object(
  {
    slug: Type.Optional(SiteSlugSchema),
    name: Type.Optional(NameSchema),
    domain: Type.Optional(DomainSchema),
    language: Type.Optional(LanguageSchema),
    articleUrlTemplate: Type.Optional(ArticleUrlTemplateSchema),
    allowedOrigins: Type.Optional(AllowedOriginsSchema),
    publicBaseUrl: Type.Optional(PublicBaseUrlSchema),
  },
  { additionalProperties: false, minProperties: 1, description: 'any of the fields; at least one' },
);
