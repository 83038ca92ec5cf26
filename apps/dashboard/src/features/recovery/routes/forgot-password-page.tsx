import { useState } from 'react';
import { type ForgotPasswordBody, useForgotPassword } from '../../../api/recovery';
import { Button } from '../../../components/button';
import { FormError } from '../../../components/form/form-error';
import { FormTextField } from '../../../components/form/form-fields';
import { useApiForm } from '../../../components/form/use-api-form';

/** /forgot-password: asks for a reset link; the answer never says whether the e-mail has a login. */
export function ForgotPasswordPage() {
  const [answer, setAnswer] = useState<string | null>(null);
  const { form, onSubmit, busy, formError } = useApiForm<
    ForgotPasswordBody,
    ForgotPasswordBody,
    { message: string }
  >({
    defaultValues: { email: '' },
    toBody: ({ email }) => ({ email: email.trim() }),
    schema: 'forgotPassword',
    mutation: useForgotPassword(),
    onSuccess: (result) => setAnswer(result.message),
  });
  return (
    <main className="login-page">
      <div className="login-card card">
        <h1>Forgot your password?</h1>
        {answer ? (
          <p className="alert alert-success" role="status">
            {answer}
          </p>
        ) : (
          <form className="stack" onSubmit={onSubmit} noValidate aria-label="Forgot password">
            <p className="muted">
              Enter your e-mail: we send a link to choose a new password (valid one hour).
            </p>
            <FormError message={formError} />
            <FormTextField
              control={form.control}
              name="email"
              label="E-mail"
              type="email"
              autoComplete="username"
              required
            />
            <Button type="submit" variant="primary" busy={busy}>
              {busy ? 'Sending…' : 'Send the link'}
            </Button>
          </form>
        )}
        <a href="/login">Back to sign in</a>
      </div>
    </main>
  );
}
