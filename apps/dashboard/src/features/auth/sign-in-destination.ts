import type { Role } from '../../api/session';

// Where a person goes after signing in: back to `?next=` when it is a path of this site, else where
// their role starts.

/** Where each role starts: staff (editor, contributor, reviewer) on the articles of their sites. */
export const homeOf = (role: Role): '/publishers' | '/publisher/dashboard' | '/articles' =>
  role === 'admin' ? '/publishers' : role === 'publisher' ? '/publisher/dashboard' : '/articles';

/**
 * The views staff roles open besides administrators, each with the operation it reads: a staff user whose
 * policy rows refuse it (a contributor and the review queue) gets the not-allowed page.
 */
const staffViews = { '/articles': 'listArticles', '/review': 'listPendingArticles' } as const;
export function staffViewOperation(pathname: string): string | undefined {
  const path = Object.keys(staffViews).find((p) => pathname === p || pathname.startsWith(`${p}/`));
  return path && staffViews[path as keyof typeof staffViews];
}

/** Pages of the API itself (Bull Board, the API reference): reached by a full page load, not the app's router. */
const serverPages = ['/admin/queues', '/docs', '/api/'];
export const isServerPage = (path: string): boolean =>
  serverPages.some(
    (page) =>
      path === page || path.startsWith(page.endsWith('/') ? page : `${page}/`) || path.startsWith(`${page}?`),
  );

/** Only same-site paths are followed after sign-in (never another origin, never //host). */
export function safeNext(next: string | undefined): string | undefined {
  if (!next?.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return undefined;
  if (next.startsWith('/login')) return undefined;
  return next;
}
