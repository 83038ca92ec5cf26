import { useState } from 'react';
import { useChangeOwnPassword } from '../../../api/session';
import { SubmitRow } from '../../../components/form/form-error';
import { FormPasswordField, FormTextField } from '../../../components/form/form-fields';
import { useApiForm } from '../../../components/form/use-api-form';
import { useToast } from '../../../components/toaster';

const codeFields = {
  INVALID_CREDENTIALS: 'currentPassword',
  WRONG_PASSWORD: 'currentPassword',
  PASSWORD_TOO_SHORT: 'newPassword',
  PASSWORD_TOO_LONG: 'newPassword',
};

/**
 * Changes the signed-in user's password; the current one is required. This session stays signed in;
 * the API ends the person's other sessions and every token, and the form says so.
 */
export function ChangePasswordForm() {
  const toast = useToast();
  const [changed, setChanged] = useState(false);
  const { form, onSubmit, busy } = useApiForm({
    defaultValues: { currentPassword: '', newPassword: '' },
    toBody: (values) => values,
    schema: 'changePassword',
    mutation: useChangeOwnPassword(),
    codeFields,
    onSuccess: (_result, _values, reset) => {
      reset();
      setChanged(true);
      toast({ kind: 'success', title: 'Your password was changed' });
    },
  });
  const [currentPassword, newPassword] = form.watch(['currentPassword', 'newPassword']);

  return (
    <form
      className="stack"
      onSubmit={(event) => {
        setChanged(false);
        return onSubmit(event);
      }}
      noValidate
      aria-label="Change password"
    >
      {changed && (
        <p className="alert alert-success" role="status">
          Your password was changed. You are still signed in here; every other session (other browsers and
          devices) and every API token of your account was signed out.
        </p>
      )}
      <FormTextField
        control={form.control}
        name="currentPassword"
        inputName="current-password"
        label="Current password"
        type="password"
        autoComplete="current-password"
        required
      />
      <FormPasswordField
        control={form.control}
        name="newPassword"
        inputName="new-password"
        label="New password"
      />
      <SubmitRow label="Change password" busy={busy} disabled={!currentPassword || !newPassword} />
    </form>
  );
}
