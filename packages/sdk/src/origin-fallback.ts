/** Answers of an edge that could not reach, or lost, the API behind it: asked again of the API itself. */
const edgeFailureStatuses = new Set([502, 503, 504]);

/**
 * A fetch that asks `baseUrl` (a CDN or Varnish in front of the API) and, when the edge cannot be reached or answers
 * 502, 503 or 504, asks the same request of `originUrl` (the API itself): a reader keeps getting answers while the
 * edge is down. A caller's abort is never retried; an answer of the API through the edge (404, 429...) is final.
 */
export function withOriginFallback(
  fetchImpl: typeof globalThis.fetch,
  baseUrl: string,
  originUrl: string,
): typeof globalThis.fetch {
  const origin = originUrl.replace(/\/+$/, '');
  return async (input, init) => {
    const request = new Request(input, init);
    if (!request.url.startsWith(`${baseUrl}/`)) return fetchImpl(request);
    // The SDK only reads (GET): the copy carries the method, headers and the caller's signal.
    const copy = request.clone();
    try {
      const response = await fetchImpl(request);
      if (!edgeFailureStatuses.has(response.status)) return response;
      await response.body?.cancel();
    } catch (error) {
      if (request.signal.aborted) throw error;
    }
    return fetchImpl(new Request(`${origin}${request.url.slice(baseUrl.length)}`, copy));
  };
}
