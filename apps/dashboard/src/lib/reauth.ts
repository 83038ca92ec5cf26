// Signing in again without leaving the view. A request of a signed-in page that meets 401 (the session
// ended on the server: idle timeout, sign-out or a password change elsewhere) does not fail: it waits here
// until the person signs in again in the dialog over the view, then the API client sends it once more.
// So a pending save lands after the sign-in, and nothing that holds unsaved input is unmounted meanwhile.

export type ReauthState = { open: false } | { open: true };

type Waiter = { resolve(): void; reject(error: unknown): void };

let waiters: Waiter[] = [];
let state: ReauthState = { open: false };
const listeners = new Set<() => void>();

function publish(next: ReauthState) {
  state = next;
  for (const listener of listeners) listener();
}

/** For the dialog (useSyncExternalStore): whether a sign-in is being waited for. */
export function subscribeReauth(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
export const reauthState = (): ReauthState => state;

/**
 * Whether someone can answer a sign-in request: the dialog is mounted. Without it (a test rendering a
 * part of the app, a script) a 401 is thrown as before.
 */
export const canReauthenticate = (): boolean => listeners.size > 0;

/**
 * Waits until the person has signed in again (resolves) or gave up (rejects with `error`, the original
 * 401). Aborting `signal` (the query was cancelled, its view left) stops this one waiter only.
 */
export function waitForSignIn(error: unknown, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const waiter: Waiter = {
      resolve: () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      reject: (reason) => {
        signal?.removeEventListener('abort', onAbort);
        reject(reason ?? error);
      },
    };
    function onAbort() {
      waiters = waiters.filter((w) => w !== waiter);
      reject(signal?.reason);
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    waiters.push(waiter);
    if (!state.open) publish({ open: true });
  });
}

/** Signed in again as the same person: every waiting request is sent again. */
export function reauthenticated(): void {
  const waiting = waiters;
  waiters = [];
  publish({ open: false });
  for (const waiter of waiting) waiter.resolve();
}

/** The person gave up (or another person signed in): every waiting request fails with its 401. */
export function reauthAbandoned(): void {
  const waiting = waiters;
  waiters = [];
  publish({ open: false });
  for (const waiter of waiting) waiter.reject(undefined);
}
