import { useState } from 'react';
import {
  isChallenge,
  type SecondFactorChallenge,
  type Session,
  useCompleteSignIn,
  useSignIn,
} from '../../../api/session';
import { Button } from '../../../components/button';
import { useApiForm } from '../../../components/form/use-api-form';
import { CredentialsFields, credentialsBody, isWrongPassword, SignInFailure } from './credentials-fields';
import { SecondFactorForm } from './second-factor-form';

/**
 * E-mail and password, then (for an account with two-factor authentication) the code; a success puts the
 * session in the query cache (the page moves on). Errors above the fields.
 */
export function LoginForm({ onSignedIn }: { onSignedIn?: (session: Session) => void }) {
  const [challenge, setChallenge] = useState<SecondFactorChallenge | null>(null);
  const [restarted, setRestarted] = useState<string | null>(null);
  const completeSignIn = useCompleteSignIn();
  const { form, onSubmit, busy, failure } = useApiForm({
    defaultValues: { email: '', password: '' },
    toBody: credentialsBody,
    schema: 'signIn',
    mutation: useSignIn(),
    onSuccess: (answer) => {
      setRestarted(null);
      if (isChallenge(answer)) setChallenge(answer);
      else onSignedIn?.(answer);
    },
  });

  if (challenge) {
    return (
      <SecondFactorForm
        challenge={challenge}
        mutation={completeSignIn}
        onVerified={onSignedIn}
        onRestart={(message) => {
          form.setValue('password', '');
          setRestarted(message);
          setChallenge(null);
        }}
      />
    );
  }
  return (
    <form className="stack" onSubmit={onSubmit} noValidate aria-label="Sign in">
      {restarted && failure === null && (
        <div className="alert alert-error" role="alert">
          {restarted}
        </div>
      )}
      <SignInFailure failure={failure}>
        {/* The API answers a disabled account as a wrong password (docs/auth.md): say that it may be one. */}
        {isWrongPassword(failure) && '. A disabled account cannot sign in: ask the newsroom.'}
      </SignInFailure>
      <CredentialsFields control={form.control} />
      <Button type="submit" variant="primary" busy={busy}>
        {busy ? 'Signing in…' : 'Sign in'}
      </Button>
    </form>
  );
}
