import { useQuery } from '@tanstack/react-query';
import { sessionQuery } from '../../../api/session';
import { PageHeader } from '../../../components/page-header';
import { ChangePasswordForm } from '../components/change-password-form';

/** /account: the signed-in user's own password. */
export function AccountPage() {
  const session = useQuery(sessionQuery).data;
  return (
    <>
      <PageHeader title="Your account">
        {session && (
          <p className="muted">
            Signed in as {session.user.email} ({session.user.role === 'admin' ? 'administrator' : 'publisher'}
            ).
          </p>
        )}
      </PageHeader>
      <section className="card" style={{ maxWidth: 640 }} aria-labelledby="password-title">
        <h2 id="password-title">Change password</h2>
        <ChangePasswordForm />
      </section>
    </>
  );
}
