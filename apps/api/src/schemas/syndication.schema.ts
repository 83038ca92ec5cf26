import { Type } from 'typebox';
import { ClientScopeQuerySchema } from './client-article.schema';

/** Query of the feeds and the news sitemap: the scope and the key (feed readers cannot send headers). */
export const SyndicationQuerySchema = ClientScopeQuerySchema;

/** Query of the plain sitemap: no page, the index; `page`, one page of 50,000 URLs. */
export const SitemapQuerySchema = Type.Object(
  {
    ...ClientScopeQuerySchema.properties,
    page: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 10_000,
        description: 'a page of the sitemap (from 1); without it, the sitemap index listing the pages',
      }),
    ),
  },
  { additionalProperties: false },
);

const XmlDocument = (description: string) => Type.String({ description });

/** A 200 whose body is a document of the given media type (the route sends it already serialised). */
export const documentResponse = (mediaType: string, description: string, example: string) => ({
  description,
  content: { [mediaType]: { schema: XmlDocument(description), example } },
});

const JsonFeedAuthorSchema = Type.Object({ name: Type.String(), url: Type.Optional(Type.String()) });

export const JsonFeedItemSchema = Type.Object(
  {
    id: Type.String({ description: 'the article id (the RSS guid)' }),
    url: Type.String({ description: "the article's public URL (the site's articleUrlTemplate)" }),
    external_url: Type.Optional(Type.String({ description: 'imported articles: the original article' })),
    title: Type.String(),
    content_html: Type.String({ description: 'the sanitised body' }),
    summary: Type.String({ description: 'plain-text excerpt, at most 300 characters' }),
    image: Type.Optional(Type.String()),
    date_published: Type.String({ format: 'date-time' }),
    date_modified: Type.String({ format: 'date-time' }),
    tags: Type.Array(Type.String(), { description: 'the category, then the tags' }),
    authors: Type.Optional(
      Type.Array(JsonFeedAuthorSchema, { description: 'imported articles: the publisher' }),
    ),
  },
  { title: 'JsonFeedItem' },
);

/** JSON Feed 1.1 (https://www.jsonfeed.org/version/1.1/). */
export const JsonFeedSchema = Type.Object(
  {
    version: Type.Literal('https://jsonfeed.org/version/1.1'),
    title: Type.String(),
    home_page_url: Type.String(),
    feed_url: Type.String({ description: "the feed's public address on the site's domain" }),
    description: Type.String(),
    language: Type.String(),
    items: Type.Array(JsonFeedItemSchema),
  },
  { title: 'JsonFeed' },
);
