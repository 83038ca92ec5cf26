import { type Static, Type } from 'typebox';

// A ready schema.org NewsArticle for a child site's page (JSON-LD: put it in a
// <script type="application/ld+json"> as it is). Built by client/structured-data.ts from our fields.

const OrganizationSchema = Type.Object({
  '@type': Type.Literal('Organization'),
  name: Type.String(),
  url: Type.Optional(Type.String({ format: 'uri' })),
});

const PersonSchema = Type.Object({
  '@type': Type.Literal('Person'),
  name: Type.String(),
  url: Type.Optional(Type.String({ format: 'uri' })),
});

const CorrectionCommentSchema = Type.Object({
  '@type': Type.Literal('CorrectionComment'),
  text: Type.String(),
  datePublished: Type.String({ format: 'date-time' }),
});

export const NewsArticleStructuredDataSchema = Type.Object(
  {
    '@context': Type.Literal('https://schema.org'),
    '@type': Type.Literal('NewsArticle'),
    headline: Type.String({ description: 'the title, cut to 110 characters (Google shows no more)' }),
    description: Type.String({ description: 'the excerpt' }),
    datePublished: Type.String({ format: 'date-time' }),
    dateModified: Type.String({ format: 'date-time' }),
    url: Type.Optional(Type.String({ format: 'uri', description: 'the canonical URL on the site' })),
    mainEntityOfPage: Type.Optional(Type.String({ format: 'uri' })),
    image: Type.Optional(
      Type.Array(Type.String({ format: 'uri' }), {
        description:
          "with an image proxy, the picture's 16:9, 4:3 and 1:1 crops at their widest; else image, then thumbnail",
      }),
    ),
    inLanguage: Type.String({ description: "the site's language (BCP 47)" }),
    publisher: OrganizationSchema,
    author: Type.Array(Type.Union([PersonSchema, OrganizationSchema]), {
      description:
        'the bylines (Person); without bylines the feed publisher for imported articles, else the site',
    }),
    articleSection: Type.Optional(Type.String()),
    keywords: Type.Optional(Type.Array(Type.String())),
    isBasedOn: Type.Optional(Type.String({ format: 'uri', description: 'imported articles: the original' })),
    correction: Type.Optional(
      Type.Array(CorrectionCommentSchema, {
        description: "the article's published corrections, oldest first",
      }),
    ),
  },
  {
    title: 'NewsArticleStructuredData',
    description:
      'schema.org NewsArticle (JSON-LD), only when asked for (`include=structuredData` or `fields=structuredData`) on a read scoped to one site',
  },
);
export type NewsArticleStructuredData = Static<typeof NewsArticleStructuredDataSchema>;
