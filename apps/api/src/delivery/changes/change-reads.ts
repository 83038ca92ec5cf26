import { ChangesExpiredError } from '@newsroom/domain';
import { HttpError } from '../../http-error';
import type { ArticleView } from '../article-view';
import type { ClientAnswer } from '../client-answer';
import { articleWriter, type ClientReadSources } from '../read-sources';
import { answerOf, etagOf } from '../response-bytes';
import { decodeCursor, decodeSnapshotCursor } from './change-cursor';
import { changePage, startOfChanges } from './change-page';
import { snapshotPage, startSnapshot } from './change-snapshot';

/** What a change feed read asks: where to go on from (none: now), how many, or a read from nothing. */
export interface ChangesParams {
  since: string | undefined;
  limit: number;
  initial: boolean;
}

/**
 * One answer of the change feed (docs/client-api.md#change-feed-clientchanges) for a view: a read from nothing
 * (`initial`), a cursor for now (no `since`), the next page of a walk from nothing, or the changes after a
 * cursor. Never kept by the caches (each answer depends on the cursor and on what has committed since); a
 * caught-up poller gets the same bytes for the same cursor, so its If-None-Match answers 304.
 */
export async function readChanges(
  sources: ClientReadSources,
  view: ArticleView,
  { since, limit, initial }: ChangesParams,
): Promise<ClientAnswer> {
  const { db, caches } = sources;
  // Upserts carry the article as /client/article/:slug writes it for this view (url or urls).
  const serializeArticle = await articleWriter(sources, null, view);
  const pages = { db, articleJson: caches.articleJson, serializeArticle };
  let body: Buffer;
  if (initial) body = await startSnapshot(pages, view, limit);
  else if (since === undefined) body = await startOfChanges(db);
  else {
    const snapshot = decodeSnapshotCursor(since);
    if (snapshot) body = await snapshotPage(pages, view, snapshot, limit);
    else body = await changePage(pages, view, positionOf(since), limit).catch(expired);
  }
  return answerOf({ body, etag: etagOf(body) }, sources.freshness.revalidated, null);
}

function positionOf(since: string) {
  const after = decodeCursor(since);
  if (!after) throw new HttpError(400, 'INVALID_CURSOR', 'since is not a cursor this API handed out');
  return after;
}

function expired(error: unknown): never {
  if (!(error instanceof ChangesExpiredError)) throw error;
  throw new HttpError(
    410,
    'CURSOR_EXPIRED',
    'Changes after this cursor are past retention: read /client/all again, then follow /client/changes from a new cursor',
  );
}
