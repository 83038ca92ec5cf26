// The CSRF token lives in memory only (never localStorage): it comes with the session and is lost on reload,
// when GET /auth/session hands it out again. Holding one also means the page believes it is signed in.

let token: string | null = null;

export function setCsrfToken(next: string | null): void {
  token = next;
}

export const csrfToken = (): string | null => token;
