import type { PasswordByLinkBody } from '../../../api/recovery';
import { Button } from '../../../components/button';
import { FormError } from '../../../components/form/form-error';
import { FormPasswordField } from '../../../components/form/form-fields';
import { type FormMutation, useApiForm } from '../../../components/form/use-api-form';

/** A new password through a one-time link (reset or invitation): the usual rules, checked by the API too. */
export function SetPasswordForm<R>({
  mutation,
  schema,
  submitLabel,
  onDone,
}: {
  mutation: FormMutation<PasswordByLinkBody, R>;
  schema: 'setPasswordByLink' | 'acceptInvitation';
  submitLabel: string;
  onDone(): void;
}) {
  const { form, onSubmit, busy, formError } = useApiForm<PasswordByLinkBody, PasswordByLinkBody, R>({
    defaultValues: { password: '' },
    toBody: ({ password }) => ({ password }),
    schema,
    mutation,
    onSuccess: onDone,
  });
  return (
    <form className="stack" onSubmit={onSubmit} noValidate aria-label="Choose a password">
      <FormError message={formError} />
      <FormPasswordField
        control={form.control}
        name="password"
        label="New password (at least 12 characters)"
        inputName="new-password"
      />
      <Button type="submit" variant="primary" busy={busy}>
        {submitLabel}
      </Button>
    </form>
  );
}
