import { type Static, Type } from 'typebox';
import { ArticleStatusSchema, ReviewReasonSchema } from './article.schema';

// The editorial tools beside the single-article routes (article-bulk.routes.ts): bulk transitions and the slug
// check.

export const BulkArticleActionSchema = Type.Union(
  [
    Type.Literal('publish'),
    Type.Literal('unpublish'),
    Type.Literal('approve'),
    Type.Literal('reject'),
    Type.Literal('back-to-pending'),
    Type.Literal('delete'),
  ],
  { description: 'a lifecycle transition, or delete' },
);

export const maxBulkIds = 100;

export const BulkArticleBodySchema = Type.Object(
  {
    action: BulkArticleActionSchema,
    ids: Type.Array(Type.String({ format: 'uuid' }), {
      minItems: 1,
      maxItems: maxBulkIds,
      uniqueItems: true,
      description: `1..${maxBulkIds} distinct article ids, processed in this order`,
    }),
    reason: Type.Optional(
      Type.Union([ReviewReasonSchema, Type.Null()], {
        description:
          'approve and reject only: the reason stored with each decision (400 with another action)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type BulkArticleBody = Static<typeof BulkArticleBodySchema>;

export const BulkArticleResultSchema = Type.Union(
  [
    Type.Object({
      id: Type.String({ format: 'uuid' }),
      ok: Type.Literal(true),
      status: Type.Optional(ArticleStatusSchema),
    }),
    Type.Object({
      id: Type.String({ format: 'uuid' }),
      ok: Type.Literal(false),
      error: Type.Object({
        code: Type.String({ example: 'INVALID_TRANSITION' }),
        message: Type.String(),
      }),
    }),
  ],
  { description: 'ok with the new status (none after delete), or the error this item got' },
);
export type BulkArticleResult = Static<typeof BulkArticleResultSchema>;

export const BulkArticleResponseSchema = Type.Object(
  { results: Type.Array(BulkArticleResultSchema, { description: 'one per id, in the order given' }) },
  { title: 'BulkArticleResults' },
);
export type BulkArticleResponse = Static<typeof BulkArticleResponseSchema>;

export const SlugCheckQuerySchema = Type.Object(
  {
    slug: Type.String({ minLength: 1, maxLength: 200, description: 'the slug an editor wants' }),
    exceptId: Type.Optional(
      Type.String({
        format: 'uuid',
        description: 'the article being edited: its own slug counts as available',
      }),
    ),
  },
  { additionalProperties: false },
);
export type SlugCheckQuery = Static<typeof SlugCheckQuerySchema>;

export const SlugCheckSchema = Type.Object(
  {
    slug: Type.String(),
    valid: Type.Boolean({
      description: 'lower-case ASCII words joined by single dashes, at most 120 characters',
    }),
    available: Type.Boolean({
      description: 'valid and used by no other article (advisory: the save decides, 409 SLUG_TAKEN)',
    }),
  },
  { title: 'SlugCheck' },
);
export type SlugCheck = Static<typeof SlugCheckSchema>;
