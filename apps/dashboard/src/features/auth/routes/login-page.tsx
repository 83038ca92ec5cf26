import { useQuery } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { sessionQuery } from '../../../api/session';
import { LoginForm } from '../components/login-form';
import { homeOf, isServerPage, safeNext } from '../sign-in-destination';
import './login-page.css';

/** /login: signs in, then returns to `next` (a path of this site) or to the role's start page. */
export function LoginPage({ next }: { next: string | undefined }) {
  const router = useRouter();
  const session = useQuery(sessionQuery);
  const target = (role: Parameters<typeof homeOf>[0]) => safeNext(next) ?? homeOf(role);
  // A page of the app goes through the router; a page of the API (Bull Board) needs a real page load.
  const go = (path: string) =>
    isServerPage(path) ? window.location.assign(path) : router.history.replace(path);

  const signedInRole = session.data?.user.role;
  const left = useRef(false);
  // Signed in (just now: the sign-in puts the session in the cache; or a reload of /login): go on, once.
  useEffect(() => {
    if (!signedInRole || left.current) return;
    left.current = true;
    go(target(signedInRole));
  });

  return (
    <main className="login-page">
      <div className="login-card card">
        <h1>Newsroom dashboard</h1>
        <p className="muted">Sign in with your administrator or publisher account.</p>
        {next && safeNext(next) && <p className="alert alert-warning">Please sign in to continue.</p>}
        <LoginForm />
        <a href="/forgot-password">Forgot password?</a>
      </div>
    </main>
  );
}
