import { Type } from 'typebox';
import { DateTimeSchema } from './date-time.schema';

const filters = {
  actor: Type.Optional(Type.String({ format: 'uuid', description: "the acting user's id" })),
  action: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'e.g. `updateArticle`, `logInFailed` (docs/audit.md)',
    }),
  ),
  objectType: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 50,
      description: 'e.g. `article`, `site_key`, `webhook`, `publisher`',
    }),
  ),
  objectId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  site: Type.Optional(Type.String({ format: 'uuid', description: 'events that apply to this site' })),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'events at or after' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'events before' })),
};

export const AuditListQuerySchema = Type.Object(
  {
    ...filters,
    before: Type.Optional(
      Type.String({
        pattern: '^[0-9]{1,15}$',
        description: '`next` of the page before (keyset: older events)',
      }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  },
  { additionalProperties: false },
);

export const AuditExportQuerySchema = Type.Object(filters, { additionalProperties: false });

export const AuditEventSchema = Type.Object(
  {
    seq: Type.Integer({ description: 'position in the chain' }),
    at: DateTimeSchema,
    actor: Type.Object({
      type: Type.Union([
        Type.Literal('user'),
        Type.Literal('publisher'),
        Type.Literal('system'),
        Type.Literal('anonymous'),
      ]),
      id: Type.Union([Type.String(), Type.Null()]),
      label: Type.Union([Type.String(), Type.Null()]),
    }),
    address: Type.Union([Type.String(), Type.Null()]),
    action: Type.String(),
    objectType: Type.String(),
    objectId: Type.Union([Type.String(), Type.Null()]),
    siteId: Type.Union([Type.String(), Type.Null()]),
    changes: Type.Union([
      Type.Object(
        { before: Type.Optional(Type.Unknown()), after: Type.Optional(Type.Unknown()) },
        { description: 'short, secrets redacted' },
      ),
      Type.Null(),
    ]),
    prevHash: Type.String(),
    hash: Type.String({ description: 'sha256(prevHash || canonical JSON of the row)' }),
  },
  { $id: 'AuditEvent' },
);

export const AuditPageSchema = Type.Object({
  data: Type.Array(AuditEventSchema),
  next: Type.Union([Type.String(), Type.Null()], {
    description: 'pass as `before` for older events; null at the end',
  }),
});
