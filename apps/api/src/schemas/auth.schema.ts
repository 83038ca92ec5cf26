import { type Static, Type } from 'typebox';

export const LoginBodySchema = Type.Object(
  {
    // No format check here: a malformed address gets the same 401 as an unknown one.
    email: Type.String({ minLength: 1, maxLength: 254 }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
  },
  { additionalProperties: false },
);

export const UserSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  email: Type.String(),
  role: Type.Union(
    [
      Type.Literal('admin'),
      Type.Literal('editor'),
      Type.Literal('contributor'),
      Type.Literal('reviewer'),
      Type.Literal('publisher'),
    ],
    {
      description: 'admin is the administrator; editor, contributor and reviewer act per site through grants',
    },
  ),
  publisherId: Type.Optional(Type.String({ format: 'uuid', description: 'only for publisher logins' })),
});
export type UserBody = Static<typeof UserSchema>;

export const LoginResponseSchema = Type.Object({
  token: Type.String({ description: 'send as Authorization: Bearer <token>' }),
  user: UserSchema,
});

export const SessionResponseSchema = Type.Object({
  user: UserSchema,
  csrfToken: Type.String({
    description:
      'send as the x-csrf-token header with every POST, PUT, PATCH or DELETE made with the session cookie',
  }),
});

// Length rules of a new password are the domain's (PASSWORD_TOO_SHORT / PASSWORD_TOO_LONG, as at
// creation); the schema only bounds what is read.
const NewPassword = Type.String({ minLength: 1, maxLength: 1024, description: '12 characters to 72 bytes' });

export const ChangePasswordBodySchema = Type.Object(
  {
    currentPassword: Type.String({ minLength: 1, maxLength: 1024 }),
    newPassword: NewPassword,
  },
  { additionalProperties: false },
);

export const ResetPasswordBodySchema = Type.Object(
  { password: NewPassword },
  { additionalProperties: false },
);
