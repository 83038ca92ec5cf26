import type { App } from '../../../api/src/app';

/**
 * `fetch` answered by the real API app (app.inject: its routes, schemas, session cookie and CSRF checks,
 * on this test file's own Postgres database), with a cookie jar as a browser would keep one.
 * jsdom has no fetch of its own and Node's cannot send cookies, so components under test reach the
 * API through this instead of a socket.
 */
export function injectFetch(app: App) {
  const jar = new Map<string, string>();
  const calls: { method: string; url: string; status: number; headers: Record<string, string> }[] = [];
  // Another origin (e.g. the storage an upload goes to) is reached over the network, as a browser would.
  const networkFetch = globalThis.fetch;

  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const address = new URL(
      typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      window.location.href,
    );
    if (address.origin !== window.location.origin) return networkFetch(input, init);
    // The dashboard's client sends a Request (openapi-fetch); a test sends a path and its init.
    const sent = await sentRequest(input, init);
    const headers: Record<string, string> = {};
    sent.headers.forEach((value, key) => {
      headers[key] = value;
    });
    if (jar.size > 0) headers.cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const method = sent.method as 'GET' | 'POST' | 'PUT' | 'DELETE';
    const url = address.pathname + address.search;
    const response = await app.inject({
      method,
      url,
      headers,
      ...(sent.body !== undefined && { payload: sent.body }),
    });
    for (const cookie of response.cookies) {
      const expired =
        cookie.maxAge === 0 ||
        (cookie.expires !== undefined && new Date(cookie.expires).getTime() < Date.now());
      if (expired || cookie.value === '') jar.delete(cookie.name);
      else jar.set(cookie.name, cookie.value);
    }
    calls.push({ method, url, status: response.statusCode, headers });
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined && name !== 'set-cookie') responseHeaders.set(name, String(value));
    }
    const noBody = response.statusCode === 204 || response.statusCode === 304;
    return new Response(noBody ? null : response.body, {
      status: response.statusCode,
      headers: responseHeaders,
    });
  };

  return { fetch, jar, calls };
}

/** The method, headers and text body of a fetch, whether it was given a Request or a path and an init. */
export async function sentRequest(
  input: RequestInfo | URL,
  init: RequestInit = {},
): Promise<{ method: string; headers: Headers; body: string | undefined }> {
  if (input instanceof Request) {
    const body = input.body ? await input.clone().text() : undefined;
    return { method: input.method, headers: input.headers, body };
  }
  const body = typeof init.body === 'string' ? init.body : undefined;
  return { method: init.method ?? 'GET', headers: new Headers(init.headers), body };
}
