import { Type } from 'typebox';
import { UserSchema } from './auth.schema';
import { DateTimeSchema } from './date-time.schema';

const Code = Type.String({
  minLength: 1,
  maxLength: 64,
  description:
    'a 6-digit code from the authenticator app, or (where accepted) a recovery code XXXX-XXXX-XXXX-XXXX',
});

/** What a right password of a user with two-factor authentication answers instead of a token or a session. */
export const SecondFactorChallengeSchema = Type.Object({
  secondFactor: Type.Literal('totp'),
  challengeToken: Type.String({
    description:
      'send back with the code to POST /auth/login/2fa or /auth/session/2fa (same kind as the sign-in); accepted by nothing else',
  }),
  expiresAt: DateTimeSchema,
  attempts: Type.Integer({ description: 'how many codes this challenge accepts' }),
});

export const SecondFactorBodySchema = Type.Object(
  { challengeToken: Type.String({ minLength: 1, maxLength: 200 }), code: Code },
  { additionalProperties: false },
);

export const TwoFactorStatusSchema = Type.Object({
  enabled: Type.Boolean(),
  confirmedAt: Type.Union([DateTimeSchema, Type.Null()]),
  recoveryCodesLeft: Type.Integer(),
  required: Type.Boolean({ description: 'the security policy requires a second factor of this user' }),
});

export const TotpSetupSchema = Type.Object({
  secret: Type.String({ description: 'base32, for typing into the app; never shown again once confirmed' }),
  otpauthUri: Type.String({ description: 'the otpauth:// URI to show as a QR code' }),
});

export const TotpCodeBodySchema = Type.Object({ code: Code }, { additionalProperties: false });

export const RecoveryCodesSchema = Type.Object({
  recoveryCodes: Type.Array(Type.String(), { description: 'shown once: only their hashes are kept' }),
});

export const TotpConfirmResponseSchema = Type.Object({
  recoveryCodes: RecoveryCodesSchema.properties.recoveryCodes,
  token: Type.Optional(
    Type.String({
      description:
        'only when authenticated by a bearer token: a new token that carries the second factor (the old one is refused from now on)',
    }),
  ),
});

export const DisableTwoFactorBodySchema = Type.Object(
  { password: Type.String({ minLength: 1, maxLength: 1024 }), code: Code },
  { additionalProperties: false },
);

export const ProfileSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  email: Type.String(),
  role: UserSchema.properties.role,
  displayName: Type.Union([Type.String(), Type.Null()], { description: 'shown as the byline; null: none' }),
});

export const ProfileUpdateBodySchema = Type.Object(
  {
    displayName: Type.Union([Type.String({ maxLength: 100 }), Type.Null()], {
      description: 'at most 100 characters, surrounding spaces dropped; null or blank clears it',
    }),
  },
  { additionalProperties: false },
);

export const SecuritySettingsSchema = Type.Object({
  requireAdminTwoFactor: Type.Boolean({
    description:
      'every administrator must have two-factor authentication: one without it gets 403 TWO_FACTOR_REQUIRED on every admin route but enrolment',
  }),
  updatedAt: DateTimeSchema,
});

export const SecuritySettingsBodySchema = Type.Object(
  { requireAdminTwoFactor: Type.Boolean() },
  { additionalProperties: false },
);
