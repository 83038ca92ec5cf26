import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { invitationQuery, useAcceptInvitation } from '../../../api/recovery';
import { errorMessage } from '../../../lib/api-error';
import { SetPasswordForm } from '../components/set-password-form';

/** /invitation/:token: the invitee sees the e-mail and role it is invited with and chooses a password. */
export function InvitationPage({ token }: { token: string }) {
  const [done, setDone] = useState(false);
  const invitation = useQuery(invitationQuery(token));
  const mutation = useAcceptInvitation(token);
  return (
    <main className="login-page">
      <div className="login-card card">
        <h1>Join the newsroom dashboard</h1>
        {invitation.isPending && <p className="muted">Reading the invitation…</p>}
        {invitation.isError && (
          <p className="alert alert-error" role="alert">
            {errorMessage(invitation.error)}: this link was used already or has expired. Ask an administrator
            for a new one.
          </p>
        )}
        {invitation.data &&
          (done ? (
            <p className="alert alert-success" role="status">
              Your account is ready. <a href="/login">Sign in</a>
            </p>
          ) : (
            <>
              <p>
                You are invited as{' '}
                <strong>{invitation.data.role === 'admin' ? 'administrator' : invitation.data.role}</strong>{' '}
                with the e-mail <strong>{invitation.data.email}</strong>.
              </p>
              <SetPasswordForm
                mutation={mutation}
                schema="acceptInvitation"
                submitLabel="Create my account"
                onDone={() => setDone(true)}
              />
            </>
          ))}
      </div>
    </main>
  );
}
