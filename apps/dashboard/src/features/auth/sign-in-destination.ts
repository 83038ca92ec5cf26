import type { Role } from '../../api/session';

// Where a person goes after signing in: back to `?next=` when it is a path of this site, else where
// their role starts.

/** Where each role starts. */
export const homeOf = (role: Role): '/publishers' | '/publisher/dashboard' =>
  role === 'admin' ? '/publishers' : '/publisher/dashboard';

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
