import { useState } from 'react';
import { useSetPasswordByLink } from '../../../api/recovery';
import { SetPasswordForm } from '../components/set-password-form';

/** /reset-password/:token: the link of a "forgot password" e-mail. Every other session ends with it. */
export function ResetPasswordPage({ token }: { token: string }) {
  const [done, setDone] = useState(false);
  const mutation = useSetPasswordByLink(token);
  return (
    <main className="login-page">
      <div className="login-card card">
        <h1>Choose a new password</h1>
        {done ? (
          <p className="alert alert-success" role="status">
            Your password is changed. <a href="/login">Sign in</a>
          </p>
        ) : (
          <SetPasswordForm
            mutation={mutation}
            schema="setPasswordByLink"
            submitLabel="Save the password"
            onDone={() => setDone(true)}
          />
        )}
      </div>
    </main>
  );
}
