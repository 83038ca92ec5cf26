import { previewLinkMaxHours } from '@newsroom/domain';
import { Type } from 'typebox';
import { DateTimeSchema } from './date-time.schema';

export const PreviewLinkSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    articleId: Type.String({ format: 'uuid' }),
    prefix: Type.String({ description: 'the first characters of the token, to recognise the link' }),
    pinned: Type.Boolean({
      description:
        'true: the link shows the article frozen as it was when the link was made; false: its current saved state',
    }),
    createdBy: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
      description: 'the user who made the link (null once that account is deleted)',
    }),
    createdAt: DateTimeSchema,
    expiresAt: DateTimeSchema,
    revokedAt: Type.Union([DateTimeSchema, Type.Null()], {
      description: 'when the link was revoked; null while it opens',
    }),
  },
  { title: 'PreviewLink' },
);

export const CreatedPreviewLinkSchema = Type.Object(
  {
    ...PreviewLinkSchema.properties,
    token: Type.String({
      description: 'the token itself: shown only in this response, stored only as a hash (sha256)',
    }),
    path: Type.String({
      description:
        'where the preview is read: `/api/v1/client/preview/<token>` (no API key; the token is the secret)',
    }),
  },
  { title: 'CreatedPreviewLink' },
);

export const CreatePreviewLinkBodySchema = Type.Object(
  {
    expiresInHours: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: previewLinkMaxHours,
        description: `hours until the link expires (default 168, 7 days; at most ${previewLinkMaxHours}); not with expiresAt`,
      }),
    ),
    expiresAt: Type.Optional(
      Type.String({
        format: 'date-time',
        description: `when the link expires: one minute to ${previewLinkMaxHours / 24} days from now; not with expiresInHours`,
      }),
    ),
    pinned: Type.Optional(
      Type.Boolean({
        default: false,
        description:
          'true: freeze the article as it is now (later edits do not show); false (default): follow its current saved state',
      }),
    ),
  },
  { additionalProperties: false },
);

export const PreviewLinkParamsSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  linkId: Type.String({ format: 'uuid' }),
});

export const PreviewTokenParamsSchema = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 200, description: 'the preview token (`npv_…`)' }),
});

export const PreviewQuerySchema = Type.Object(
  {
    site: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description:
          "write the article as this site's reads do (`url`: its canonical URL on that site, no `urls`); without it, as network reads do (`urls`)",
      }),
    ),
  },
  { additionalProperties: false },
);
