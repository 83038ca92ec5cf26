import { useEffect, useState } from 'react';
import type { SecondFactorChallenge, Session, useCompleteSignIn } from '../../../api/session';
import { Button } from '../../../components/button';
import { FormTextField } from '../../../components/form/form-fields';
import { useApiForm } from '../../../components/form/use-api-form';
import { ApiError } from '../../../lib/api-error';
import { SignInFailure } from './credentials-fields';

/** Refusals after which the challenge is gone: the password step starts again. */
const restartCodes = new Set(['SECOND_FACTOR_CHALLENGE_INVALID']);

/**
 * The second step of a sign-in (the page's and the dialog's): a 6-digit code from the authenticator app, or
 * a recovery code instead. The input is the browser's one-time-code field (numeric keypad on phones, codes
 * from SMS/password managers offered). A challenge that expired or ran out of attempts goes back to the
 * password step (`onRestart`).
 */
export function SecondFactorForm({
  challenge,
  mutation,
  onVerified,
  onRestart,
}: {
  challenge: SecondFactorChallenge;
  mutation: ReturnType<typeof useCompleteSignIn>;
  onVerified?(session: Session): void;
  onRestart(message: string): void;
}) {
  const [recovery, setRecovery] = useState(false);
  const { form, onSubmit, busy, failure } = useApiForm({
    defaultValues: { code: '' },
    toBody: ({ code }: { code: string }) => ({ challengeToken: challenge.challengeToken, code: code.trim() }),
    schema: 'secondFactor',
    mutation,
    // Every refusal is said above the field (a wrong code, a used code, the lockout's wait).
    errorsOf: () => ({}),
    onSuccess: (session) => onVerified?.(session),
  });
  useEffect(() => {
    if (failure instanceof ApiError && restartCodes.has(failure.code)) onRestart(failure.message);
  }, [failure, onRestart]);

  return (
    <form className="stack" onSubmit={onSubmit} noValidate aria-label="Second step of sign-in">
      <p>
        {recovery
          ? 'Type one of the recovery codes you saved when you turned on two-factor authentication. Each works once.'
          : 'Open your authenticator app and type the 6-digit code it shows for Newsroom.'}
      </p>
      <SignInFailure failure={failure} />
      {recovery ? (
        <FormTextField
          key="recovery"
          control={form.control}
          name="code"
          label="Recovery code"
          autoComplete="off"
          spellCheck={false}
          autoCapitalize="characters"
          required
          autoFocus
        />
      ) : (
        <FormTextField
          key="totp"
          control={form.control}
          name="code"
          label="Authentication code"
          autoComplete="one-time-code"
          inputMode="numeric"
          pattern="[0-9]*"
          maxLength={6}
          required
          autoFocus
        />
      )}
      <Button type="submit" variant="primary" busy={busy}>
        {busy ? 'Checking…' : 'Verify'}
      </Button>
      <Button
        variant="link"
        onClick={() => {
          form.reset({ code: '' });
          setRecovery(!recovery);
        }}
      >
        {recovery ? 'Use the code from your app' : 'Use a recovery code'}
      </Button>
    </form>
  );
}
