import type { PublisherState } from '../../../api/publishers';

// The /publishers view's URL state (so filters survive reloads and links).

export const publisherStates = [
  'awaiting',
  'approved',
  'disabled',
] as const satisfies readonly PublisherState[];
export type { PublisherState };

export interface PublishersSearch {
  state?: PublisherState | undefined;
  q?: string | undefined;
  page?: number | undefined;
}

export function validatePublishersSearch(search: Record<string, unknown>): PublishersSearch {
  const state = publisherStates.find((value) => value === search.state);
  const q = typeof search.q === 'string' && search.q.trim() ? search.q.trim().slice(0, 200) : undefined;
  const page = Number(search.page);
  return {
    state,
    q,
    page: Number.isInteger(page) && page > 1 ? Math.min(page, 1_000_000) : undefined,
  };
}
