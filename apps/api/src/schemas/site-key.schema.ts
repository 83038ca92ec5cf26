import { type Static, type TLiteral, Type } from 'typebox';
import { DateTimeSchema } from './date-time.schema';

const kindOptions = {
  description:
    'secret (`nsk_…`): for servers; reads every client route, answers are `Cache-Control: private`. ' +
    'publishable (`npk_…`): read-only and safe to expose in a browser or a URL; refused by the change feed; ' +
    'answers are `public` with surrogate keys, so a CDN may keep them (docs/client-api.md#publishable-keys)',
};
const kinds = (): [TLiteral<'secret'>, TLiteral<'publishable'>] => [
  Type.Literal('secret'),
  Type.Literal('publishable'),
];
export const SiteKeyKindSchema = Type.Union(kinds(), kindOptions);

export const SiteKeySchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    siteId: Type.String({ format: 'uuid' }),
    name: Type.String(),
    kind: SiteKeyKindSchema,
    prefix: Type.String({ description: 'the first characters of the key, to recognise it' }),
    createdAt: DateTimeSchema,
    revokedAt: Type.Union([DateTimeSchema, Type.Null()], {
      description: 'when the key was revoked; null while valid',
    }),
    lastUsedAt: Type.Union([DateTimeSchema, Type.Null()], {
      description: 'when a client request last used the key (written about once a minute); null if never',
    }),
  },
  { title: 'SiteKey' },
);
export type SiteKey = Static<typeof SiteKeySchema>;

export const CreatedSiteKeySchema = Type.Object(
  {
    ...SiteKeySchema.properties,
    key: Type.String({ description: 'the key itself: shown only in this response, stored only as a hash' }),
  },
  { title: 'CreatedSiteKey' },
);

export const CreateSiteKeyBodySchema = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'what the key is for, e.g. "production"',
    }),
    kind: Type.Optional(Type.Union(kinds(), { ...kindOptions, default: 'secret' })),
  },
  { additionalProperties: false },
);

export const SiteParamsSchema = Type.Object({ id: Type.String({ format: 'uuid' }) });
export const SiteKeyParamsSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  keyId: Type.String({ format: 'uuid' }),
});
