import { useState } from 'react';
import { type InvitationSent, useInvite } from '../../../api/team';
import { FormError, SubmitRow } from '../../../components/form/form-error';
import { FormTextField } from '../../../components/form/form-fields';
import { useApiForm } from '../../../components/form/use-api-form';
import { useToast } from '../../../components/toaster';
import { AccessFields, type AccessValues, accessBody } from './access-fields';

type InviteValues = AccessValues & { email: string };

/** Refusals that name a field: the e-mail already has a login; the grants name an unknown site. */
export const accessCodeFields = {
  EMAIL_TAKEN: 'email',
  UNKNOWN_SITE: 'grants',
  INVALID_GRANTS: 'grants',
  LAST_ADMINISTRATOR: 'role',
};

/**
 * Invite a person by e-mail with a role and per-site grants. The answer says it was mailed, or (development
 * without SMTP) shows the one-time link itself.
 */
export function InviteForm({ disabled }: { disabled?: boolean }) {
  const toast = useToast();
  const [sent, setSent] = useState<InvitationSent | null>(null);
  const { form, onSubmit, busy, formError } = useApiForm({
    defaultValues: { email: '', role: 'editor', grants: {} } as InviteValues,
    toBody: (values: InviteValues) => ({ email: values.email.trim(), ...accessBody(values) }),
    schema: 'inviteUser',
    mutation: useInvite(),
    codeFields: accessCodeFields,
    onSuccess: (invitation, _values, reset) => {
      setSent(invitation);
      toast({ kind: 'success', title: `Invitation for ${invitation.email} created` });
      reset();
    },
  });

  return (
    <form className="card stack" onSubmit={onSubmit} noValidate aria-labelledby="invite-heading">
      <h2 id="invite-heading">Invite a person</h2>
      <FormError message={formError} />
      <FormTextField
        control={form.control}
        name="email"
        label="E-mail"
        type="email"
        autoComplete="off"
        hint="They get a one-time link to choose a password, valid 7 days."
      />
      <AccessFields control={form.control} />
      <SubmitRow label="Send invitation" busy={busy} disabled={disabled} />
      {sent && (
        <div className="alert alert-success stack" role="status">
          {sent.developmentLink ? (
            <>
              <p>
                Mail is not configured (development): the invitation for {sent.email} was not sent. Give them
                this link, it works once:
              </p>
              <a className="break-anywhere" href={sent.developmentLink} data-testid="invitation-link">
                {sent.developmentLink}
              </a>
            </>
          ) : (
            <p>Invitation sent to {sent.email}.</p>
          )}
        </div>
      )}
    </form>
  );
}
