import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useCan } from '../../../api/permissions';
import { sessionQuery } from '../../../api/session';
import { type TeamMember, teamQuery, useMemberAction } from '../../../api/team';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { PageHeader } from '../../../components/page-header';
import { EmptyState, ErrorState, LoadingState } from '../../../components/states';
import { useToast } from '../../../components/toaster';
import { errorMessage } from '../../../lib/api-error';
import { AccessForm } from '../components/access-form';
import { InviteForm } from '../components/invite-form';
import { PendingInvitations } from '../components/pending-invitations';
import { type MemberAction, TeamTable } from '../components/team-table';
import './team.css';

const done: Record<Exclude<MemberAction, 'access'>, string> = {
  suspend: 'suspended',
  reinstate: 'resumed',
  delete: 'deleted',
};

/**
 * /team (administrators): the staff users with their role, grants, last sign-in and second factor; invite,
 * change access, suspend or resume, delete (after a confirmation). A refusal (the last administrator, oneself)
 * is said above the table.
 */
export function TeamPage() {
  const toast = useToast();
  const session = useQuery(sessionQuery).data;
  const members = useQuery(teamQuery);
  const canInvite = useCan('inviteUser');
  const act = useMemberAction();
  const [editing, setEditing] = useState<TeamMember | null>(null);
  const [deleting, setDeleting] = useState<TeamMember | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);

  function run(member: TeamMember, action: Exclude<MemberAction, 'access'>) {
    setRefusal(null);
    act.mutate(
      { id: member.id, action },
      {
        onSuccess: () => {
          setDeleting(null);
          toast({ kind: 'success', title: `${member.email} ${done[action]}` });
        },
        onError: (error) => {
          setDeleting(null);
          setRefusal(errorMessage(error));
        },
      },
    );
  }

  function onAction(member: TeamMember, action: MemberAction) {
    if (action === 'access') setEditing(member);
    else if (action === 'delete') setDeleting(member);
    else run(member, action);
  }

  return (
    <>
      <PageHeader title="Team">
        <p className="muted">Staff users, their role and sites. Changes apply on their next request.</p>
      </PageHeader>
      <div className="team-layout">
        <section className="stack" aria-labelledby="members-heading">
          <h2 id="members-heading">People</h2>
          {refusal && (
            <div className="alert alert-error" role="alert">
              {refusal}
            </div>
          )}
          {members.isPending ? (
            <LoadingState label="Loading the team…" />
          ) : members.isError ? (
            <ErrorState error={members.error} onRetry={() => members.refetch()} />
          ) : members.data.length === 0 ? (
            <EmptyState>No staff users yet.</EmptyState>
          ) : (
            <TeamTable
              members={members.data}
              selfId={session?.user.id ?? ''}
              busy={act.isPending}
              onAction={onAction}
            />
          )}
          {editing && <AccessForm key={editing.id} member={editing} onDone={() => setEditing(null)} />}
          <PendingInvitations />
        </section>
        {canInvite && <InviteForm />}
      </div>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete this person?"
        confirmLabel="Delete for good"
        busy={act.isPending}
        onConfirm={() => deleting && run(deleting, 'delete')}
      >
        <p>
          {deleting?.email} can no longer sign in, at once. Their articles stay, with their history; the
          e-mail cannot be invited again.
        </p>
      </ConfirmDialog>
    </>
  );
}
