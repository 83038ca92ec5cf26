import { type FormEvent, useState } from 'react';
import { type Session, useSignIn } from '../../../api/session';
import { Button } from '../../../components/button';
import { TextField } from '../../../components/text-field';
import { ApiError, errorMessage } from '../../../lib/api-error';
import { fieldErrors } from '../../../lib/field-errors';

/** E-mail and password; a success puts the session in the query cache (the page moves on). Errors above the fields. */
export function LoginForm({ onSignedIn }: { onSignedIn?: (session: Session) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const signIn = useSignIn();
  const fields = fieldErrors(signIn.error, ['email', 'password'] as const);

  function submit(event: FormEvent) {
    event.preventDefault();
    signIn.mutate({ email: email.trim(), password }, { onSuccess: (session) => onSignedIn?.(session) });
  }

  return (
    <form className="stack" onSubmit={submit} noValidate aria-label="Sign in">
      {signIn.isError && (
        <div className="alert alert-error" role="alert">
          {errorMessage(signIn.error)}
          {/* The API answers a disabled account as a wrong password (docs/auth.md): say that it may be one. */}
          {signIn.error instanceof ApiError &&
            signIn.error.code === 'INVALID_CREDENTIALS' &&
            '. A disabled account cannot sign in: ask the newsroom.'}
        </div>
      )}
      <TextField
        label="E-mail"
        type="email"
        name="email"
        autoComplete="username"
        required
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        error={fields.email}
      />
      <TextField
        label="Password"
        type="password"
        name="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        error={fields.password}
      />
      <Button type="submit" variant="primary" busy={signIn.isPending}>
        {signIn.isPending ? 'Signing in…' : 'Sign in'}
      </Button>
    </form>
  );
}
