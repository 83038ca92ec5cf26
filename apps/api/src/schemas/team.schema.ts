import { type Static, Type } from 'typebox';
import { DateTimeSchema as DateTime } from './date-time.schema';

export const StaffRoleSchema = Type.Union(
  [Type.Literal('admin'), Type.Literal('editor'), Type.Literal('contributor'), Type.Literal('reviewer')],
  {
    description: 'admin: the administrator (everything); editor, contributor, reviewer: through site grants',
  },
);
export const SiteRoleSchema = Type.Union([
  Type.Literal('editor'),
  Type.Literal('contributor'),
  Type.Literal('reviewer'),
]);

export const GrantSchema = Type.Object(
  { siteId: Type.String({ format: 'uuid' }), role: SiteRoleSchema },
  { additionalProperties: false },
);
const GrantsSchema = Type.Array(GrantSchema, {
  maxItems: 200,
  description: 'one role per site; an administrator holds none',
});

export const StaffAccessBodySchema = Type.Object(
  { role: StaffRoleSchema, grants: GrantsSchema },
  { additionalProperties: false },
);

export const TeamMemberSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    email: Type.String(),
    displayName: Type.Union([Type.String(), Type.Null()], { description: 'the name the user gave itself' }),
    role: StaffRoleSchema,
    grants: Type.Array(
      Type.Object({ siteId: Type.String({ format: 'uuid' }), siteSlug: Type.String(), role: SiteRoleSchema }),
    ),
    suspended: Type.Boolean(),
    lastSignInAt: Type.Union([DateTime, Type.Null()]),
    twoFactor: Type.Boolean({ description: 'signs in with a second factor (a confirmed authenticator)' }),
    createdAt: DateTime,
  },
  { title: 'TeamMember' },
);
export type TeamMemberBody = Static<typeof TeamMemberSchema>;

export const UserIdParamsSchema = Type.Object({ id: Type.String({ format: 'uuid' }) });

export const InviteBodySchema = Type.Object(
  {
    email: Type.String({ format: 'email', minLength: 3, maxLength: 254 }),
    role: StaffRoleSchema,
    grants: GrantsSchema,
  },
  { additionalProperties: false },
);

export const InvitationSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    email: Type.String(),
    role: StaffRoleSchema,
    grants: Type.Array(GrantSchema),
    expiresAt: DateTime,
    createdAt: DateTime,
  },
  { title: 'Invitation' },
);

export const InvitationSentSchema = Type.Object(
  {
    ...InvitationSchema.properties,
    mail: Type.Union([Type.Literal('sent'), Type.Literal('outbox')], {
      description: 'sent over SMTP, or kept in the development outbox (no SMTP_URL; never in production)',
    }),
    developmentLink: Type.Union([Type.String(), Type.Null()], {
      description: 'the invitation link, only when the mail went to the development outbox; null otherwise',
    }),
  },
  { title: 'InvitationSent' },
);

export const PermissionsSchema = Type.Object(
  {
    role: Type.String({ description: "the user's own role" }),
    grants: Type.Array(
      Type.Object({ siteId: Type.String({ format: 'uuid' }), siteSlug: Type.String(), role: SiteRoleSchema }),
    ),
    everything: Type.Boolean({ description: 'true for administrators: every operation, every target' }),
    rows: Type.Array(
      Type.Object({ operationId: Type.String(), caller: Type.String(), scope: Type.String() }),
      { description: 'the policy rows whose caller the user is (packages/domain/src/policy)' },
    ),
  },
  { title: 'Permissions' },
);

export const TokenParamsSchema = Type.Object({
  token: Type.String({ minLength: 20, maxLength: 100, pattern: '^[A-Za-z0-9_-]+$' }),
});

export const PasswordBodySchema = Type.Object(
  { password: Type.String({ minLength: 1, maxLength: 1024 }) },
  { additionalProperties: false },
);

export const PasswordResetRequestBodySchema = Type.Object(
  { email: Type.String({ minLength: 1, maxLength: 254 }) },
  { additionalProperties: false },
);

export const InvitationPreviewSchema = Type.Object({
  email: Type.String(),
  role: StaffRoleSchema,
  expiresAt: DateTime,
});
