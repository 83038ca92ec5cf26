import { Link, Outlet, useRouter, useRouterState } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { useCanEach } from '../api/permissions';
import { type Session, useSignOut } from '../api/session';
import { Button } from '../components/button';
import { PendingCountBadge } from '../features/review';
import { sectionOf } from './nav-section';
import './app-shell.css';

// Each entry names the operation its view reads: an entry shows only when the policy allows it.
const adminLinks = [
  { to: '/publishers', label: 'Publishers', operation: 'listPublishers' },
  { to: '/publishers/create', label: 'New publisher', operation: 'createPublisher' },
  { to: '/publishers/reports', label: 'Reports', operation: 'getPublisherReports' },
  { to: '/articles', label: 'Articles', operation: 'listArticles' },
  { to: '/review', label: 'Review', operation: 'listPendingArticles' },
  { to: '/scheduled', label: 'Scheduled', operation: 'listScheduledActions' },
  { to: '/sites', label: 'Sites', operation: 'createSite' },
  { to: '/webhooks', label: 'Webhooks', operation: 'listWebhooks' },
  { to: '/team', label: 'Team', operation: 'listUsers' },
  { to: '/audit', label: 'Audit', operation: 'listAuditEvents' },
] as const;
const staffLinks = [
  { to: '/articles', label: 'Articles', operation: 'listArticles' },
  { to: '/review', label: 'Review', operation: 'listPendingArticles' },
] as const;
const publisherLinks = [
  { to: '/publisher/dashboard', label: 'Dashboard', operation: 'getOwnPublisher' },
  { to: '/publisher/feed', label: 'Feed', operation: 'getOwnPublisher' },
] as const;
type NavLink = (typeof adminLinks | typeof staffLinks | typeof publisherLinks)[number];
type NavPath = NavLink['to'] | '/account';

/**
 * The signed-in frame: navigation by role (its section highlighted on lists, filtered or not, and on
 * detail pages; behind a Menu button on a phone), the signed-in account, sign out, then the view.
 */
export function AppShell({ session }: { session: Session }) {
  const router = useRouter();
  const signOut = useSignOut();
  const { user } = session;
  const can = useCanEach();
  const roleLinks: readonly NavLink[] =
    user.role === 'admin' ? adminLinks : user.role === 'publisher' ? publisherLinks : staffLinks;
  const links = roleLinks.filter((l) => can?.(l.operation));
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const section = sectionOf(pathname, [...links.map((l) => l.to), '/account']);
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  // Any change of path closes the menu (Back included); the new view's heading takes the focus.
  // biome-ignore lint/correctness/useExhaustiveDependencies: closes on every change of path
  useEffect(() => setMenuOpen(false), [pathname]);

  const link = (to: NavPath, label: string, operation?: string) => (
    <Link
      key={to}
      to={to}
      data-operation={operation}
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
            {links.map((l) => link(l.to, l.label, l.operation))}
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
