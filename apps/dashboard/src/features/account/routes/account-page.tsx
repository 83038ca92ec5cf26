import { useQuery } from '@tanstack/react-query';
import { profileQuery } from '../../../api/account';
import { sessionQuery } from '../../../api/session';
import { PageHeader } from '../../../components/page-header';
import { ErrorState, LoadingState } from '../../../components/states';
import { ChangePasswordForm } from '../components/change-password-form';
import { ProfileForm } from '../components/profile-form';
import { SecurityPolicySection } from '../components/security-policy-section';
import { TwoFactorSection } from '../components/two-factor-section';
import './account-page.css';

/** /account: the signed-in user's profile, password and (staff) two-factor authentication. */
export function AccountPage() {
  const session = useQuery(sessionQuery).data;
  const profile = useQuery(profileQuery);
  const staff = session !== undefined && session !== null && session.user.role !== 'publisher';
  return (
    <>
      <PageHeader title="Your account">
        {session && (
          <p className="muted">
            Signed in as {session.user.email} (
            {session.user.role === 'admin' ? 'administrator' : session.user.role}
            ).
          </p>
        )}
      </PageHeader>
      <div className="account-sections">
        {staff && (
          <section className="card" aria-labelledby="two-factor-title">
            <h2 id="two-factor-title">Two-factor authentication</h2>
            <TwoFactorSection />
          </section>
        )}
        <section className="card" aria-labelledby="profile-title">
          <h2 id="profile-title">Profile</h2>
          {profile.isPending ? (
            <LoadingState />
          ) : profile.isError ? (
            <ErrorState error={profile.error} onRetry={() => profile.refetch()} />
          ) : (
            <ProfileForm profile={profile.data} />
          )}
        </section>
        <section className="card" aria-labelledby="password-title">
          <h2 id="password-title">Change password</h2>
          <ChangePasswordForm />
        </section>
        {session?.user.role === 'admin' && (
          <section className="card" aria-labelledby="policy-title">
            <h2 id="policy-title">Security policy</h2>
            <SecurityPolicySection />
          </section>
        )}
      </div>
    </>
  );
}
