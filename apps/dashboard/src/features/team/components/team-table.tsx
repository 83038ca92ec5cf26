import type { TeamMember } from '../../../api/team';
import { Button } from '../../../components/button';
import { formatDateTime } from '../../../lib/format';
import { roleNames } from './access-fields';

export type MemberAction = 'access' | 'suspend' | 'reinstate' | 'delete';

/** The staff users by e-mail: role, grants per site, last sign-in, second factor, state and their actions. */
export function TeamTable({
  members,
  selfId,
  busy,
  onAction,
}: {
  members: readonly TeamMember[];
  /** The signed-in administrator: it neither suspends nor deletes itself. */
  selfId: string;
  busy: boolean;
  onAction(member: TeamMember, action: MemberAction): void;
}) {
  return (
    <div className="table-wrap">
      <table className="table team-table">
        <caption className="visually-hidden">Staff users, by e-mail</caption>
        <thead>
          <tr>
            <th scope="col">Person</th>
            <th scope="col">Role</th>
            <th scope="col">Sites</th>
            <th scope="col">Last sign-in</th>
            <th scope="col">Two-factor</th>
            <th scope="col">State</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {members.map((member) => {
            const who = member.displayName ?? member.email;
            return (
              <tr key={member.id}>
                <td className="team-person">
                  {member.displayName && <strong>{member.displayName}</strong>}
                  {member.displayName && <br />}
                  {member.email}
                  {member.id === selfId && <span className="muted"> (you)</span>}
                </td>
                <td data-label="Role">{roleNames[member.role]}</td>
                <td data-label="Sites">
                  {member.role === 'admin'
                    ? 'All sites'
                    : member.grants
                        .map((g) => `${g.siteSlug}: ${roleNames[g.role].toLowerCase()}`)
                        .join(', ') || 'None'}
                </td>
                <td data-label="Last sign-in">
                  {member.lastSignInAt ? formatDateTime(member.lastSignInAt) : 'Never'}
                </td>
                <td data-label="Two-factor">{member.twoFactor ? 'On' : 'Off'}</td>
                <td data-label="State">{member.suspended ? <strong>Suspended</strong> : 'Active'}</td>
                <td>
                  <div className="row team-actions">
                    <Button
                      size="small"
                      data-operation="updateUser"
                      aria-label={`Change access of ${who}`}
                      onClick={() => onAction(member, 'access')}
                    >
                      Change access
                    </Button>
                    {member.id !== selfId &&
                      (member.suspended ? (
                        <Button
                          size="small"
                          data-operation="reinstateUser"
                          busy={busy}
                          aria-label={`Resume ${who}`}
                          onClick={() => onAction(member, 'reinstate')}
                        >
                          Resume
                        </Button>
                      ) : (
                        <Button
                          size="small"
                          data-operation="suspendUser"
                          busy={busy}
                          aria-label={`Suspend ${who}`}
                          onClick={() => onAction(member, 'suspend')}
                        >
                          Suspend
                        </Button>
                      ))}
                    {member.id !== selfId && (
                      <Button
                        size="small"
                        variant="danger"
                        data-operation="deleteUser"
                        aria-label={`Delete ${who}`}
                        onClick={() => onAction(member, 'delete')}
                      >
                        Delete
                      </Button>
                    )}
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
