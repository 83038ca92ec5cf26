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
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (new URL(url, window.location.href).origin !== window.location.origin)
      return networkFetch(input, init);
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, key) => {
      headers[key] = value;
    });
    if (jar.size > 0) headers.cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const method = (init.method ?? 'GET') as 'GET' | 'POST' | 'PUT' | 'DELETE';
    const response = await app.inject({
      method,
      url,
      headers,
      ...(typeof init.body === 'string' && { payload: init.body }),
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
