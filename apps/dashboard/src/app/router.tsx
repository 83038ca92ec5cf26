import type { QueryClient } from '@tanstack/react-query';
import { useQuery } from '@tanstack/react-query';
import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  getRouteApi,
  lazyRouteComponent,
  Navigate,
  Outlet,
  redirect,
  useRouterState,
} from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useCanEach } from '../api/permissions';
import { type Role, sessionQuery } from '../api/session';
import { EmptyState } from '../components/states';
import { TwoFactorGate } from '../features/account/components/two-factor-gate';
import { AccountPage } from '../features/account/routes/account-page';
import { validateArticlesSearch } from '../features/articles/routes/articles-search';
import { validateAuditSearch } from '../features/audit/routes/audit-search';
import { homeOf, LoginPage, NotAllowedPage, staffViewOperation } from '../features/auth';
import { FeedPage } from '../features/publisher-self/routes/feed-page';
import { PublisherDashboardPage } from '../features/publisher-self/routes/publisher-dashboard-page';
import { CreatePublisherPage } from '../features/publishers/routes/create-publisher-page';
import { PublisherPage } from '../features/publishers/routes/publisher-page';
import { PublishersPage } from '../features/publishers/routes/publishers-page';
import { validatePublishersSearch } from '../features/publishers/routes/publishers-search';
import { ForgotPasswordPage, InvitationPage, ResetPasswordPage } from '../features/recovery';
import { validateReviewSearch } from '../features/review/search';
import { AppShell } from './app-shell';
import { RouteFocus } from './route-focus';

// The route tree, typed and code-based. Features own their views; this file only places them:
// /login is public; everything else sits under "signed-in" (session required, else /login?next=...),
// then under a role layout that shows "Not allowed" instead of a view of the other role.

export interface RouterContext {
  queryClient: QueryClient;
}

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: function RootLayout(): ReactNode {
    return (
      <>
        <RouteFocus />
        <Outlet />
      </>
    );
  },
  notFoundComponent: () => (
    <main className="shell-main">
      <EmptyState>
        <h1>Page not found</h1>
        <a href="/">Go to the start page</a>
      </EmptyState>
    </main>
  ),
});

const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/login',
  validateSearch: (search: Record<string, unknown>): { next?: string | undefined } => ({
    next: typeof search.next === 'string' ? search.next : undefined,
  }),
  component: function LoginRoute(): ReactNode {
    const { next } = getRouteApi('/login').useSearch();
    return <LoginPage next={next} />;
  },
});

// Public recovery views (team-roles): forgot password, the reset link, the invitation link.
const forgotPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/forgot-password',
  component: ForgotPasswordPage,
});
const resetPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/reset-password/$token',
  component: function ResetPasswordRoute(): ReactNode {
    return <ResetPasswordPage token={getRouteApi('/reset-password/$token').useParams().token} />;
  },
});
const invitationRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/invitation/$token',
  component: function InvitationRoute(): ReactNode {
    return <InvitationPage token={getRouteApi('/invitation/$token').useParams().token} />;
  },
});

const signedInRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'signed-in',
  beforeLoad: async ({ context, location }) => {
    const session = await context.queryClient.ensureQueryData(sessionQuery);
    if (!session) throw redirect({ to: '/login', search: { next: location.href } });
  },
  component: function SignedInLayout(): ReactNode {
    const session = useQuery(sessionQuery).data;
    // The session ended while on a page (sign-out elsewhere, expiry): the query events redirect to /login.
    if (!session) return null;
    return <AppShell session={session} />;
  },
});

/** A layout that lets only one role through; the other role gets the "Not allowed" page. */
function roleLayout(role: Role, id: 'admin' | 'publisher') {
  return createRoute({
    getParentRoute: () => signedInRoute,
    id,
    component: function RoleLayout(): ReactNode {
      const session = useQuery(sessionQuery).data;
      const can = useCanEach();
      const pathname = useRouterState({ select: (state) => state.location.pathname });
      if (!session) return null;
      // Staff roles (editor, contributor, reviewer) open the article and review views of the admin layout
      // whose operation their policy rows allow (read once: nothing shows until they are).
      const staffOperation = staffViewOperation(pathname);
      const staff = role === 'admin' && session.user.role !== 'publisher' && session.user.role !== 'admin';
      if (staff && staffOperation && !can) return null;
      const staffAllowed = staff && staffOperation !== undefined && can?.(staffOperation) === true;
      if (session.user.role !== role && !staffAllowed) return <NotAllowedPage role={session.user.role} />;
      // Staff views wait for the second factor when the policy requires one (features/account).
      if (role === 'admin') return <TwoFactorGate>{<Outlet />}</TwoFactorGate>;
      return <Outlet />;
    },
  });
}
const adminRoute = roleLayout('admin', 'admin');
const publisherRoute = roleLayout('publisher', 'publisher');

const indexRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: '/',
  component: function StartPage(): ReactNode {
    const session = useQuery(sessionQuery).data;
    return session ? <Navigate to={homeOf(session.user.role)} replace /> : null;
  },
});

const publishersRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/publishers',
  validateSearch: validatePublishersSearch,
  component: function PublishersRoute(): ReactNode {
    const route = getRouteApi('/signed-in/admin/publishers');
    const search = route.useSearch();
    const navigate = route.useNavigate();
    return <PublishersPage search={search} onSearchChange={(next) => navigate({ search: next })} />;
  },
});

const createPublisherRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/publishers/create',
  component: CreatePublisherPage,
});

const reportsRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/publishers/reports',
  // With its chart library: loaded only when the view opens.
  component: lazyRouteComponent(() => import('../features/reports/routes/reports-page'), 'ReportsPage'),
});

// The review queue and the child sites: loaded with their views.
const reviewRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/review',
  validateSearch: validateReviewSearch,
  component: lazyRouteComponent(() => import('../features/review/routes/review-route'), 'ReviewRoute'),
});

const sitesRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/sites',
  component: lazyRouteComponent(() => import('../features/sites/routes/sites-page'), 'SitesPage'),
});

const webhooksRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/webhooks',
  component: lazyRouteComponent(() => import('../features/webhooks/routes/webhooks-page'), 'WebhooksPage'),
});

const auditRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/audit',
  validateSearch: validateAuditSearch,
  component: lazyRouteComponent(() => import('../features/audit/routes/audit-route'), 'AuditRoute'),
});

const teamRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/team',
  component: lazyRouteComponent(() => import('../features/team/routes/team-page'), 'TeamPage'),
});

const scheduledRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/scheduled',
  component: lazyRouteComponent(() => import('../features/schedule/routes/scheduled-page'), 'ScheduledPage'),
});

const publisherDetailRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/publishers/$id',
  component: function PublisherRoute(): ReactNode {
    const { id } = getRouteApi('/signed-in/admin/publishers/$id').useParams();
    return <PublisherPage id={id} />;
  },
});

// The article views load with their route (the editor is the largest chunk of the app).
const articlesRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/articles',
  validateSearch: validateArticlesSearch,
  component: lazyRouteComponent(() => import('../features/articles/routes/articles-route'), 'ArticlesRoute'),
});
const newArticleRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/articles/new',
  component: lazyRouteComponent(() => import('../features/articles/routes/editor-route'), 'NewArticlePage'),
});
const articleRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/articles/$id',
  component: lazyRouteComponent(() => import('../features/articles/routes/editor-route'), 'EditArticleRoute'),
});

const publisherDashboardRoute = createRoute({
  getParentRoute: () => publisherRoute,
  path: '/publisher/dashboard',
  component: PublisherDashboardPage,
});

const publisherFeedRoute = createRoute({
  getParentRoute: () => publisherRoute,
  path: '/publisher/feed',
  component: FeedPage,
});

const accountRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: '/account',
  component: AccountPage,
});

const routeTree = rootRoute.addChildren([
  loginRoute,
  forgotPasswordRoute,
  resetPasswordRoute,
  invitationRoute,
  signedInRoute.addChildren([
    indexRoute,
    accountRoute,
    adminRoute.addChildren([
      publishersRoute,
      createPublisherRoute,
      reportsRoute,
      publisherDetailRoute,
      articlesRoute,
      newArticleRoute,
      articleRoute,
      reviewRoute,
      sitesRoute,
      webhooksRoute,
      auditRoute,
      scheduledRoute,
      teamRoute,
    ]),
    publisherRoute.addChildren([publisherDashboardRoute, publisherFeedRoute]),
  ]),
]);

export function createAppRouter(queryClient: QueryClient) {
  return createRouter({
    routeTree,
    context: { queryClient },
    defaultPreload: 'intent',
    scrollRestoration: true,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
