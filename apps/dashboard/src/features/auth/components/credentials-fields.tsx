import type { ReactNode } from 'react';
import type { Control } from 'react-hook-form';
import type { LoginBody } from '../../../api/session';
import { FormTextField } from '../../../components/form/form-fields';
import { ApiError, errorMessage } from '../../../lib/api-error';

/** The sign-in form's values and the body they send (the e-mail trimmed). */
export const credentialsBody = ({ email, password }: LoginBody): LoginBody => ({
  email: email.trim(),
  password,
});

/** E-mail and password of a sign-in (the page's and the dialog's after a session ended). */
export function CredentialsFields({
  control,
  focusPassword = false,
}: {
  control: Control<LoginBody>;
  /** The e-mail is known (signing in again): the password is what the person types. */
  focusPassword?: boolean;
}) {
  return (
    <>
      <FormTextField
        control={control}
        name="email"
        label="E-mail"
        type="email"
        autoComplete="username"
        required
      />
      <FormTextField
        control={control}
        name="password"
        label="Password"
        type="password"
        autoComplete="current-password"
        required
        autoFocus={focusPassword}
      />
    </>
  );
}

/** A refused sign-in, above the fields: every failure is said there (a wrong password names no field). */
export function SignInFailure({ failure, children }: { failure: unknown; children?: ReactNode }) {
  if (failure === null) return null;
  return (
    <div className="alert alert-error" role="alert">
      {errorMessage(failure)}
      {children}
    </div>
  );
}

export const isWrongPassword = (failure: unknown): boolean =>
  failure instanceof ApiError && failure.code === 'INVALID_CREDENTIALS';
