import { type FormEvent, useState } from 'react';
import { useChangeOwnPassword } from '../../../api/session';
import { Button } from '../../../components/button';
import { PasswordField } from '../../../components/password-field';
import { TextField } from '../../../components/text-field';
import { useToast } from '../../../components/toaster';
import { fieldErrors } from '../../../lib/field-errors';

/**
 * Changes the signed-in user's password; the current one is required. This session stays signed in;
 * the API ends the person's other sessions and every token, and the form says so.
 */
export function ChangePasswordForm() {
  const toast = useToast();
  const change = useChangeOwnPassword();
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNew] = useState('');
  const [changed, setChanged] = useState(false);
  const errors = fieldErrors(change.error, ['currentPassword', 'newPassword'] as const, {
    INVALID_CREDENTIALS: 'currentPassword',
    WRONG_PASSWORD: 'currentPassword',
    PASSWORD_TOO_SHORT: 'newPassword',
    PASSWORD_TOO_LONG: 'newPassword',
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setChanged(false);
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: () => {
          setCurrent('');
          setNew('');
          setChanged(true);
          toast({ kind: 'success', title: 'Your password was changed' });
        },
      },
    );
  }

  return (
    <form className="stack" onSubmit={submit} noValidate aria-label="Change password">
      {changed && (
        <p className="alert alert-success" role="status">
          Your password was changed. You are still signed in here; every other session (other browsers and
          devices) and every API token of your account was signed out.
        </p>
      )}
      <TextField
        label="Current password"
        name="current-password"
        type="password"
        autoComplete="current-password"
        required
        value={currentPassword}
        onChange={(e) => setCurrent(e.target.value)}
        error={errors.currentPassword}
      />
      <PasswordField
        label="New password"
        name="new-password"
        value={newPassword}
        onChange={setNew}
        error={errors.newPassword}
      />
      <div className="row">
        <Button
          type="submit"
          variant="primary"
          busy={change.isPending}
          disabled={!currentPassword || !newPassword}
        >
          Change password
        </Button>
      </div>
    </form>
  );
}
