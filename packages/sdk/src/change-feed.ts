import type { Client } from 'openapi-fetch';
import { errorBody, NewsroomApiError, unwrap } from './errors.js';
import type { components, paths } from './generated/openapi.js';

type ClientArticle = components['schemas']['ClientArticle'];

/**
 * What the change feed tells a copy of the content. Apply them in order; store `cursor` (when not null) after
 * applying an event, and pass it back as `cursor` to resume.
 * - `reset`: clear the copy; every article follows as an upsert (at the start, and when the stored cursor
 *   is past the API's retention: 410).
 * - `upsert`: the article as `/client/article/:slug` returns it now; `cursor` is null during the full read
 *   that follows a reset (an interrupted full read starts again).
 * - `delete`: the article left this key's view (key items by `id`: slugs can change).
 * - `caughtUp`: nothing more for now; the iterator polls again after `pollIntervalMs` (or ends: `follow: false`).
 */
export type ChangeEvent =
  | { type: 'reset'; reason: 'start' | 'expired' }
  | { type: 'upsert'; id: string; slug: string; article: ClientArticle; cursor: string | null }
  | { type: 'delete'; id: string; slug: string; cursor: string }
  | { type: 'caughtUp'; cursor: string };

export interface ChangesOptions {
  /** A cursor stored from an earlier run; none: start with a full read. */
  cursor?: string | null;
  /** The network key: only this site (slug). */
  site?: string;
  /** Changes per request (1-500, default 100). */
  limit?: number;
  /** Wait between polls once caught up, default 5,000 ms. */
  pollIntervalMs?: number;
  /** false: end at the first `caughtUp` (a cron job); default true: poll for ever (until `signal` aborts). */
  follow?: boolean;
  /** Ends the iteration (also during a wait between polls). */
  signal?: AbortSignal;
}

/**
 * The change feed as an async iterator: a full read of `/client/all` after a cursor taken just before it (so
 * nothing committed during the read is missed; what is served twice is harmless to apply twice), then
 * `/client/changes` from that cursor, page by page, polling once caught up. A 410 (cursor past retention)
 * starts over with a reset.
 */
export async function* readChanges(
  api: Client<paths>,
  options: ChangesOptions = {},
): AsyncGenerator<ChangeEvent, void, undefined> {
  const { site, limit = 100, pollIntervalMs = 5_000, follow = true, signal } = options;
  let cursor = options.cursor ?? null;
  if (cursor === null) yield { type: 'reset', reason: 'start' };
  while (!signal?.aborted) {
    if (cursor === null) {
      const start = await unwrap(api.GET('/api/v1/client/changes', { params: { query: { site } }, signal }));
      const all = await unwrap(api.GET('/api/v1/client/all', { params: { query: { site } }, signal }));
      // Asked without `fields`, /all answers whole articles (the document also allows sparse ones).
      for (const article of (Array.isArray(all) ? all : all.data) as ClientArticle[]) {
        yield { type: 'upsert', id: article.id, slug: article.slug, article, cursor: null };
      }
      cursor = start.meta.next;
    }
    const query = { since: cursor, limit, site };
    const { data, error, response } = await api.GET('/api/v1/client/changes', { params: { query }, signal });
    if (response.status === 410) {
      cursor = null;
      yield { type: 'reset', reason: 'expired' };
      continue;
    }
    if (error !== undefined || data === undefined)
      throw new NewsroomApiError(response.status, errorBody(error));
    for (const item of data.data) {
      if (item.type === 'upsert' && item.article) {
        yield { type: 'upsert', id: item.id, slug: item.slug, article: item.article, cursor: item.cursor };
      } else {
        yield { type: 'delete', id: item.id, slug: item.slug, cursor: item.cursor };
      }
    }
    cursor = data.meta.next;
    if (data.meta.hasMore) continue;
    yield { type: 'caughtUp', cursor };
    if (!follow) return;
    await pause(pollIntervalMs, signal);
  }
}

/** Waits `ms`, or less when `signal` aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
