import { type FormEvent, useState } from 'react';
import { useResetPublisherPassword } from '../../../api/publishers';
import { Button } from '../../../components/button';
import { PasswordField } from '../../../components/password-field';
import { useToast } from '../../../components/toaster';
import { fieldErrors } from '../../../lib/field-errors';

/** Sets a new password for the publisher's login (hand it over yourself). */
export function ResetPasswordForm({ publisherId }: { publisherId: string }) {
  const toast = useToast();
  const reset = useResetPublisherPassword(publisherId);
  const [password, setPassword] = useState('');
  const errors = fieldErrors(reset.error, ['password'] as const, {
    PASSWORD_TOO_SHORT: 'password',
    PASSWORD_TOO_LONG: 'password',
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    reset.mutate(password, {
      onSuccess: () => {
        setPassword('');
        toast({
          kind: 'success',
          title: 'Password changed',
          description: 'Give the publisher its new password.',
        });
      },
    });
  }

  return (
    <form className="stack" onSubmit={submit} noValidate aria-label="Reset password">
      <PasswordField
        label="New password"
        name="new-password"
        value={password}
        onChange={setPassword}
        error={errors.password}
      />
      <div className="row">
        <Button type="submit" busy={reset.isPending} disabled={!password}>
          Set new password
        </Button>
      </div>
    </form>
  );
}
