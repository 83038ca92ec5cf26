import { useQuery } from '@tanstack/react-query';
import { invitationsQuery, useRevokeInvitation } from '../../../api/team';
import { Button } from '../../../components/button';
import { ErrorState } from '../../../components/states';
import { formatDateTime } from '../../../lib/format';
import { roleNames } from './access-fields';

/** Invitations not yet accepted nor expired, each revocable (its link stops working). */
export function PendingInvitations() {
  const invitations = useQuery(invitationsQuery);
  const revoke = useRevokeInvitation();
  if (invitations.isError)
    return <ErrorState error={invitations.error} onRetry={() => invitations.refetch()} />;
  if (!invitations.data || invitations.data.length === 0) return null;
  return (
    <section className="stack" aria-labelledby="invitations-heading">
      <h2 id="invitations-heading">Pending invitations</h2>
      <ul className="stack team-invitations">
        {invitations.data.map((invitation) => (
          <li key={invitation.id} className="row">
            <span className="break-anywhere">
              {invitation.email}, {roleNames[invitation.role].toLowerCase()}, until{' '}
              {formatDateTime(invitation.expiresAt)}
            </span>
            <Button
              size="small"
              data-operation="revokeInvitation"
              busy={revoke.isPending}
              aria-label={`Revoke the invitation of ${invitation.email}`}
              onClick={() => revoke.mutate(invitation.id)}
            >
              Revoke
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}
