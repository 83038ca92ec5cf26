import { type TeamMember, useChangeAccess } from '../../../api/team';
import { Button } from '../../../components/button';
import { FormError, SubmitRow } from '../../../components/form/form-error';
import { useApiForm } from '../../../components/form/use-api-form';
import { useToast } from '../../../components/toaster';
import { AccessFields, type AccessValues, accessBody } from './access-fields';
import { accessCodeFields } from './invite-form';

/** Change a staff user's role and grants; effective on its next request. */
export function AccessForm({ member, onDone }: { member: TeamMember; onDone(): void }) {
  const toast = useToast();
  const { form, onSubmit, busy, formError } = useApiForm({
    defaultValues: {
      role: member.role,
      grants: Object.fromEntries(member.grants.map((grant) => [grant.siteId, grant.role])),
    } as AccessValues,
    toBody: accessBody,
    schema: 'updateUserAccess',
    mutation: useChangeAccess(member.id),
    codeFields: accessCodeFields,
    onSuccess: (saved) => {
      toast({ kind: 'success', title: `Access of ${saved.email} changed` });
      onDone();
    },
  });
  const heading = `access-${member.id}`;
  return (
    <form className="card stack" onSubmit={onSubmit} noValidate aria-labelledby={heading}>
      <h2 id={heading}>Access of {member.displayName ?? member.email}</h2>
      <FormError message={formError} />
      <AccessFields control={form.control} />
      <SubmitRow label="Save access" busy={busy}>
        <Button onClick={onDone}>Cancel</Button>
      </SubmitRow>
    </form>
  );
}
