import { Link, Outlet, useRouter, useRouterState } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { type Session, useSignOut } from '../api/session';
import { Button } from '../components/button';
import { PendingCountBadge } from '../features/review';
import { sectionOf } from './nav-section';
import './app-shell.css';

const adminLinks = [
  { to: '/publishers', label: 'Publishers' },
  { to: '/publishers/create', label: 'New publisher' },
  { to: '/publishers/reports', label: 'Reports' },
  { to: '/articles', label: 'Articles' },
  { to: '/review', label: 'Review' },
  { to: '/scheduled', label: 'Scheduled' },
  { to: '/sites', label: 'Sites' },
  { to: '/webhooks', label: 'Webhooks' },
  { to: '/audit', label: 'Audit' },
] as const;
const publisherLinks = [
  { to: '/publisher/dashboard', label: 'Dashboard' },
  { to: '/publisher/feed', label: 'Feed' },
] as const;
type NavPath = (typeof adminLinks | typeof publisherLinks)[number]['to'] | '/account';

/**
 * The signed-in frame: navigation by role (its section highlighted on lists, filtered or not, and on
 * detail pages; behind a Menu button on a phone), the signed-in account, sign out, then the view.
 */
export function AppShell({ session }: { session: Session }) {
  const router = useRouter();
  const signOut = useSignOut();
  const { user } = session;
  const links = user.role === 'admin' ? adminLinks : publisherLinks;
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const section = sectionOf(pathname, [...links.map((l) => l.to), '/account']);
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  // Any change of path closes the menu (Back included); the new view's heading takes the focus.
  // biome-ignore lint/correctness/useExhaustiveDependencies: closes on every change of path
  useEffect(() => setMenuOpen(false), [pathname]);

  const link = (to: NavPath, label: string) => (
    <Link
      key={to}
      to={to}
      className={to === section ? 'shell-link active' : 'shell-link'}
      aria-current={to === section ? 'page' : undefined}
      activeOptions={{ exact: true, includeSearch: false }}
    >
      {label}
      {to === '/review' && <PendingCountBadge />}
    </Link>
  );

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="shell-header">
        <div className="shell-bar">
          <span className="shell-brand">Newsroom</span>
          <button
            ref={menuButton}
            type="button"
            className="shell-menu-button"
            aria-expanded={menuOpen}
            aria-controls="shell-nav"
            onClick={() => setMenuOpen((open) => !open)}
          >
            Menu
          </button>
          <nav
            id="shell-nav"
            aria-label="Main"
            className={menuOpen ? 'shell-nav shell-nav-open' : 'shell-nav'}
            // Following a link closes the menu, to the same path too (a filtered list's own link).
            onClick={(event) => {
              if (event.target instanceof Element && event.target.closest('a')) setMenuOpen(false);
            }}
            onKeyDown={(event) => {
              if (event.key === 'Escape' && menuOpen) {
                setMenuOpen(false);
                menuButton.current?.focus();
              }
            }}
          >
            {links.map((l) => link(l.to, l.label))}
            {user.role === 'admin' && (
              // A page of the API (Bull Board), not of this app: a full page load, same session.
              <a href="/admin/queues" className="shell-link">
                Queues
              </a>
            )}
            {link('/account', 'Account')}
            <span className="shell-nav-account">Signed in as {user.email}</span>
          </nav>
          <div className="shell-user">
            <span className="shell-email" title={user.email}>
              {user.email}
            </span>
            <Button
              size="small"
              busy={signOut.isPending}
              onClick={() => signOut.mutate(undefined, { onSettled: () => router.history.push('/login') })}
            >
              Sign out
            </Button>
          </div>
        </div>
      </header>
      <main id="main" className="shell-main" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}
