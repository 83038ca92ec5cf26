import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { sessionKeys } from '../api/session';
import { type ShowToast, Toaster, useToast } from '../components/toaster';
import { ReauthDialog } from '../features/auth';
import { ApiError, errorMessage } from '../lib/api-error';
import { setCsrfToken } from '../lib/csrf-token';
import { createQueryClient } from './query-client';
import { createAppRouter } from './router';

/**
 * The query cache and the router, wired together. A request that meets an ended session waits for the
 * sign-in dialog (lib/reauth.ts); only when the person signs out there, or no dialog is mounted, does a
 * 401 return to /login?next=<here>.
 */
export function createDashboard() {
  const toasts: { show: ShowToast } = { show: () => {} };
  const signedOut = () => {
    setCsrfToken(null);
    queryClient.setQueryData(sessionKeys.session, null);
    const { pathname, href } = router.state.location;
    // The signed-in views are gone with the session: an editor's "leave without saving?" cannot hold
    // them (its text stays in the browser's copy, offered back when the editor opens again).
    if (pathname !== '/login')
      void router.navigate({ to: '/login', search: { next: href }, ignoreBlocker: true });
  };
  const queryClient = createQueryClient({
    onSessionExpired: signedOut,
    onMutationError: (error) => {
      // Another tab signed in as someone else (new cookie, new token): read the session again.
      if (error instanceof ApiError && error.code === 'CSRF_TOKEN_INVALID') {
        void queryClient.invalidateQueries({ queryKey: sessionKeys.session });
        return toasts.show({ kind: 'error', title: 'Your session changed. Try again.' });
      }
      // The form puts each field's problem next to it; the toast only points there.
      if (error instanceof ApiError && error.code === 'VALIDATION_ERROR' && error.details.length > 0) {
        return toasts.show({
          kind: 'error',
          title: 'Some fields need attention',
          description: 'See the messages next to them.',
        });
      }
      toasts.show({ kind: 'error', title: errorMessage(error) });
    },
  });
  const router = createAppRouter(queryClient);
  return { queryClient, router, toasts, signedOut };
}

type Dashboard = ReturnType<typeof createDashboard>;

/** Hands the toaster to the query events (they live outside React). */
function ToastBridge({ toasts }: { toasts: Dashboard['toasts'] }) {
  const show = useToast();
  useEffect(() => {
    toasts.show = show;
  }, [show, toasts]);
  return null;
}

export function App({ dashboard }: { dashboard?: Dashboard }) {
  const [{ queryClient, router, toasts, signedOut }] = useState(() => dashboard ?? createDashboard());
  return (
    <QueryClientProvider client={queryClient}>
      <Toaster>
        <ToastBridge toasts={toasts} />
        <RouterProvider router={router} />
        <ReauthDialog onSignOut={signedOut} />
      </Toaster>
    </QueryClientProvider>
  );
}
