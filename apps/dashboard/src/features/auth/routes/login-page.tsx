import { useQuery } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { useEffect } from 'react';
import { homeOf, safeNext, sessionQuery } from '../api/session';
import { LoginForm } from '../components/login-form';
import './login-page.css';

/** /login: signs in, then returns to `next` (a path of this site) or to the role's start page. */
export function LoginPage({ next }: { next: string | undefined }) {
  const router = useRouter();
  const session = useQuery(sessionQuery);
  const target = (role: Parameters<typeof homeOf>[0]) => safeNext(next) ?? homeOf(role);

  const signedInRole = session.data?.user.role;
  // Already signed in (a reload of /login, or right after signing in): go on.
  useEffect(() => {
    if (signedInRole) router.history.replace(safeNext(next) ?? homeOf(signedInRole));
  }, [signedInRole, next, router]);

  return (
    <main className="login-page">
      <div className="login-card card">
        <h1>Newsroom dashboard</h1>
        <p className="muted">Sign in with your administrator or publisher account.</p>
        {next && safeNext(next) && <p className="alert alert-warning">Please sign in to continue.</p>}
        <LoginForm onSignedIn={(signedIn) => router.history.replace(target(signedIn.user.role))} />
      </div>
    </main>
  );
}
