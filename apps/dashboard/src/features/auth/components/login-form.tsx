import { type Session, useSignIn } from '../../../api/session';
import { Button } from '../../../components/button';
import { useApiForm } from '../../../components/form/use-api-form';
import { CredentialsFields, credentialsBody, isWrongPassword, SignInFailure } from './credentials-fields';

/** E-mail and password; a success puts the session in the query cache (the page moves on). Errors above the fields. */
export function LoginForm({ onSignedIn }: { onSignedIn?: (session: Session) => void }) {
  const { form, onSubmit, busy, failure } = useApiForm({
    defaultValues: { email: '', password: '' },
    toBody: credentialsBody,
    schema: 'signIn',
    mutation: useSignIn(),
    onSuccess: (session) => onSignedIn?.(session),
  });

  return (
    <form className="stack" onSubmit={onSubmit} noValidate aria-label="Sign in">
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
