import { useResetPublisherPassword } from '../../../api/publishers';
import { SubmitRow } from '../../../components/form/form-error';
import { FormPasswordField } from '../../../components/form/form-fields';
import { useApiForm } from '../../../components/form/use-api-form';
import { useToast } from '../../../components/toaster';

const codeFields = { PASSWORD_TOO_SHORT: 'password', PASSWORD_TOO_LONG: 'password' };

/** Sets a new password for the publisher's login (hand it over yourself). */
export function ResetPasswordForm({ publisherId }: { publisherId: string }) {
  const toast = useToast();
  const reset = useResetPublisherPassword(publisherId);
  const { form, onSubmit, busy } = useApiForm({
    defaultValues: { password: '' },
    toBody: (values) => values,
    schema: 'resetPassword',
    // The hook sends the password alone (it builds the body itself).
    mutation: { mutateAsync: ({ password }) => reset.mutateAsync(password), isPending: reset.isPending },
    codeFields,
    onSuccess: (_result, _values, startAgain) => {
      startAgain();
      toast({
        kind: 'success',
        title: 'Password changed',
        description: 'Give the publisher its new password.',
      });
    },
  });

  return (
    <form className="stack" onSubmit={onSubmit} noValidate aria-label="Reset password">
      <FormPasswordField
        control={form.control}
        name="password"
        inputName="new-password"
        label="New password"
      />
      <SubmitRow label="Set new password" variant="default" busy={busy} disabled={!form.watch('password')} />
    </form>
  );
}
