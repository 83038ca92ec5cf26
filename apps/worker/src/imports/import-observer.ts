import type { FeedErrorCode } from '@newsroom/feeds';

/** How a feed fetch ended: a body to parse, a 304, or a failure. */
export type FetchOutcome = 'fetched' | 'not_modified' | 'error';

/** What the fetch job reports as it goes (metrics); jobs know nothing of prom-client. */
export interface ImportObserver {
  fetchDone(outcome: FetchOutcome, seconds: number): void;
  itemsImported(counts: { inserted: number; skipped: number; filtered?: number; waiting?: number }): void;
  feedError(code: FeedErrorCode): void;
}

export const ignoreImports: ImportObserver = {
  fetchDone() {},
  itemsImported() {},
  feedError() {},
};
