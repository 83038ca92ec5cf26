import { Link } from '@tanstack/react-router';
import type { Role } from '../../../api/session';
import { homeOf } from '../sign-in-destination';

/** Shown instead of a view the signed-in role may not open; nothing of the view is loaded. */
export function NotAllowedPage({ role }: { role: Role }) {
  return (
    <section className="card" aria-labelledby="not-allowed-title">
      <h1 id="not-allowed-title">Not allowed</h1>
      <p>
        {role === 'admin' || role === 'publisher'
          ? `This page is for ${role === 'admin' ? 'publishers' : 'administrators'}. Your account cannot open it.`
          : 'Your role cannot open this page.'}
      </p>
      <Link to={homeOf(role)} className="btn btn-primary">
        Go to your start page
      </Link>
    </section>
  );
}
