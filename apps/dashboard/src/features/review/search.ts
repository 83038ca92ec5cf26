// /review's URL state (kept out of the lazily loaded view, so the router can read it up front).

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function validateReviewSearch(search: Record<string, unknown>): { publisher?: string | undefined } {
  return {
    publisher:
      typeof search.publisher === 'string' && uuid.test(search.publisher) ? search.publisher : undefined,
  };
}
