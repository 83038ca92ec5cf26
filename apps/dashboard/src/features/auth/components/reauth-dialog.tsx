import * as Dialog from '@radix-ui/react-dialog';
import { useQueryClient } from '@tanstack/react-query';
import { useState, useSyncExternalStore } from 'react';
import {
  isChallenge,
  type SecondFactorChallenge,
  type Session,
  sessionKeys,
  useCompleteReauthentication,
  useReauthenticate,
} from '../../../api/session';
import { Button } from '../../../components/button';
import { useApiForm } from '../../../components/form/use-api-form';
import { reauthAbandoned, reauthenticated, reauthState, subscribeReauth } from '../../../lib/reauth';
import { homeOf } from '../sign-in-destination';
import { CredentialsFields, credentialsBody, SignInFailure } from './credentials-fields';
import { SecondFactorForm } from './second-factor-form';

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
  const [challenge, setChallenge] = useState<SecondFactorChallenge | null>(null);
  const completeReauthentication = useCompleteReauthentication();
  const signedIn = (session: Session) => {
    const before = queryClient.getQueryData<Session | null>(sessionKeys.session);
    if (before?.user.id === session.user.id) return reauthenticated();
    // Someone else signed in: nothing of the previous person's view or requests may carry over.
    window.location.assign(homeOf(session.user.role));
  };
  const { form, onSubmit, busy, failure } = useApiForm({
    // The person whose session ended (still in the cache: it is cleared only when they give up).
    defaultValues: {
      email: queryClient.getQueryData<Session | null>(sessionKeys.session)?.user.email ?? '',
      password: '',
    },
    toBody: credentialsBody,
    schema: 'signIn',
    mutation: useReauthenticate(),
    onSuccess: (answer) => (isChallenge(answer) ? setChallenge(answer) : signedIn(answer)),
  });

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
      {challenge ? (
        <SecondFactorForm
          challenge={challenge}
          mutation={completeReauthentication}
          onVerified={signedIn}
          onRestart={() => setChallenge(null)}
        />
      ) : (
        <form className="stack" onSubmit={onSubmit} noValidate aria-label="Sign in again">
          <SignInFailure failure={failure} />
          <CredentialsFields control={form.control} focusPassword />
          <div className="dialog-actions">
            <Button
              onClick={() => {
                reauthAbandoned();
                onSignOut();
              }}
            >
              Sign out
            </Button>
            <Button type="submit" variant="primary" busy={busy}>
              {busy ? 'Signing in…' : 'Sign in'}
            </Button>
          </div>
        </form>
      )}
    </>
  );
}
