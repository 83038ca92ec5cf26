import { articleFieldLimits as limits } from '@newsroom/domain';
import { Type } from 'typebox';
import { DateTimeSchema } from './date-time.schema';

// Issue 32: bylines, standfirst, image metadata and corrections, as the admin API takes and answers them.
// The client API's shapes (client-article.schema.ts) leave out what is internal (a byline's userId, who added
// a correction).

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

const HttpUrlSchema = Type.String({
  format: 'uri',
  pattern: '^https?://',
  maxLength: limits.url,
  description: 'an absolute http(s) URL',
});

const text = (maxLength: number, description: string) =>
  Nullable(Type.String({ maxLength, description: `${description}; trimmed, blank is none` }));

export const FocalPointSchema = Type.Object(
  {
    x: Type.Number({ minimum: 0, maximum: 1, description: 'from the left edge, 0..1' }),
    y: Type.Number({ minimum: 0, maximum: 1, description: 'from the top edge, 0..1' }),
  },
  { additionalProperties: false, title: 'FocalPoint', description: 'where crops centre' },
);

const dimension = (what: string) =>
  Nullable(
    Type.Integer({ minimum: 1, maximum: limits.dimension, description: `${what} in pixels, when known` }),
  );

/** What an editor sends about a picture (all optional; alt is required by the API whenever the picture is set). */
export const ImageMetaInputSchema = Type.Object(
  {
    alt: Type.Optional(text(limits.alt, 'text alternative, required whenever the picture is set')),
    caption: Type.Optional(text(limits.caption, 'shown under the picture')),
    credit: Type.Optional(text(limits.credit, 'photographer or agency')),
    width: Type.Optional(dimension('width')),
    height: Type.Optional(dimension('height')),
    focalPoint: Type.Optional(Nullable(FocalPointSchema)),
  },
  { additionalProperties: false, title: 'ImageMetaInput' },
);

/** A picture's metadata as stored and answered (null fields: not known). */
export const ImageMetaSchema = Type.Object(
  {
    alt: Nullable(Type.String()),
    caption: Nullable(Type.String()),
    credit: Nullable(Type.String()),
    width: Nullable(Type.Integer()),
    height: Nullable(Type.Integer()),
    focalPoint: Nullable(FocalPointSchema),
  },
  { title: 'ImageMeta' },
);

export const BylineInputSchema = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: limits.bylineName,
      pattern: '\\S',
      description: 'as printed',
    }),
    url: Type.Optional(Nullable(HttpUrlSchema)),
    userId: Type.Optional(
      Nullable(
        Type.String({ format: 'uuid', description: 'a staff user (must exist); the name stays as given' }),
      ),
    ),
  },
  { additionalProperties: false, title: 'BylineInput' },
);

export const BylineSchema = Type.Object(
  { name: Type.String(), url: Nullable(Type.String()), userId: Nullable(Type.String()) },
  { title: 'Byline' },
);

export const BylinesInputSchema = Type.Array(BylineInputSchema, {
  maxItems: limits.bylines,
  description: `the authors in print order, at most ${limits.bylines}; the same name twice is kept once`,
});

export const StandfirstInputSchema = Nullable(
  Type.String({
    maxLength: limits.standfirst,
    description: `plain text under the headline, at most ${limits.standfirst} characters; blank is none`,
  }),
);

export const CorrectionSchema = Type.Object(
  {
    text: Type.String(),
    at: DateTimeSchema,
    by: Nullable(Type.Object({ userId: Type.String(), name: Type.String() })),
  },
  { title: 'Correction' },
);

export const CorrectionInputSchema = Type.Object(
  {
    text: Type.String({
      minLength: 1,
      maxLength: limits.correctionText,
      pattern: '\\S',
      description: 'what was wrong and what changed, shown to readers',
    }),
  },
  {
    additionalProperties: false,
    title: 'CorrectionInput',
    description:
      'published articles only (else 409 ARTICLE_NOT_PUBLISHED): appends a correction note (with who and when) to the article, bumps updatedAt and emits article.corrected',
  },
);

/** The issue-32 fields of the admin Article. */
export const articleFieldProperties = {
  thumbnailMeta: Nullable(ImageMetaSchema),
  imageMeta: Nullable(ImageMetaSchema),
  bylines: Type.Array(BylineSchema),
  standfirst: Nullable(Type.String()),
  corrections: Type.Array(CorrectionSchema, { description: 'oldest first' }),
  needsAltText: Type.Boolean({
    description: 'a picture lacks alt text (imported items may): flagged for review',
  }),
};

/** The issue-32 fields create and edit take. */
export const articleFieldInputProperties = {
  thumbnailMeta: Type.Optional(Nullable(ImageMetaInputSchema)),
  imageMeta: Type.Optional(Nullable(ImageMetaInputSchema)),
  bylines: Type.Optional(BylinesInputSchema),
  standfirst: Type.Optional(StandfirstInputSchema),
};
