import * as Dialog from '@radix-ui/react-dialog';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState, useSyncExternalStore } from 'react';
import { type Session, sessionKeys, useReauthenticate } from '../../../api/session';
import { Button } from '../../../components/button';
import { TextField } from '../../../components/text-field';
import { errorMessage } from '../../../lib/api-error';
import { fieldErrors } from '../../../lib/field-errors';
import { reauthAbandoned, reauthenticated, reauthState, subscribeReauth } from '../../../lib/reauth';
import { homeOf } from '../sign-in-destination';

/**
 * Over the view whose request met an ended session: sign in again and the waiting requests (a save, a
 * poll) are sent again; nothing under the dialog is unmounted. It cannot be dismissed by Escape or a click
 * outside (the requests would wait for ever): the ways out are Sign in and Sign out.
 */
export function ReauthDialog({ onSignOut }: { onSignOut(): void }) {
  const { open } = useSyncExternalStore(subscribeReauth, reauthState, reauthState);
  return (
    <Dialog.Root open={open}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          className="dialog-content"
          onEscapeKeyDown={(event) => event.preventDefault()}
          onPointerDownOutside={(event) => event.preventDefault()}
          onInteractOutside={(event) => event.preventDefault()}
        >
          {open && <ReauthForm onSignOut={onSignOut} />}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function ReauthForm({ onSignOut }: { onSignOut(): void }) {
  const queryClient = useQueryClient();
  // The person whose session ended (still in the cache: it is cleared only when they give up).
  const [email, setEmail] = useState(
    () => queryClient.getQueryData<Session | null>(sessionKeys.session)?.user.email ?? '',
  );
  const [password, setPassword] = useState('');
  const signIn = useReauthenticate();
  const fields = fieldErrors(signIn.error, ['email', 'password'] as const);

  function submit(event: FormEvent) {
    event.preventDefault();
    signIn.mutate(
      { email: email.trim(), password },
      {
        onSuccess: (session) => {
          const before = queryClient.getQueryData<Session | null>(sessionKeys.session);
          if (before?.user.id === session.user.id) return reauthenticated();
          // Someone else signed in: nothing of the previous person's view or requests may carry over.
          window.location.assign(homeOf(session.user.role));
        },
      },
    );
  }

  return (
    <>
      <Dialog.Title asChild>
        <h2>Sign in again</h2>
      </Dialog.Title>
      <Dialog.Description asChild>
        <p>
          Your session has ended. Everything on this page is kept: sign in again and what you were doing (a
          save, for example) continues.
        </p>
      </Dialog.Description>
      <form className="stack" onSubmit={submit} noValidate aria-label="Sign in again">
        {signIn.isError && (
          <div className="alert alert-error" role="alert">
            {errorMessage(signIn.error)}
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
          // The e-mail is known: the password is what the person types.
          autoFocus
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={fields.password}
        />
        <div className="dialog-actions">
          <Button
            onClick={() => {
              reauthAbandoned();
              onSignOut();
            }}
          >
            Sign out
          </Button>
          <Button type="submit" variant="primary" busy={signIn.isPending}>
            {signIn.isPending ? 'Signing in…' : 'Sign in'}
          </Button>
        </div>
      </form>
    </>
  );
}
