import { findImportedGuids, type ImportCounts, importFeedItems, nextFetchAfter } from '@newsroom/domain';
import {
  FeedError,
  type FetchFeedResult,
  feedRefreshSeconds,
  splitFeedItems,
  streamFeedEntries,
  withItemsLeftOut,
} from '@newsroom/feeds';
import type { JobDeps } from './job-deps';

/** A full response of the feed's server (not a 304), as the fetcher returns it. */
type FeedBody = Extract<FetchFeedResult, { notModified: false }>;

/**
 * Imports a full body of a publisher's feed: the items the publisher already has are left out before
 * parsing, the rest are parsed and saved batch by batch inside the import's transaction (importFeedItems),
 * with what the body leaves on the publisher (validators, its hash, its refresh hint, the next fetch).
 * Each item is normalised (body sanitised, images found) only once its guid is known to be new. A body
 * that turns out not to be a feed (FeedError from the parser) rolls the import back and goes to `giveUp`,
 * which fails the job like a fetch error.
 */
export async function importFeedBody(
  deps: Pick<JobDeps, 'db' | 'allowPrivateImages'>,
  publisherId: string,
  fetched: FeedBody,
  bodyHash: string,
  now: Date,
  giveUp: (error: FeedError) => Promise<never>,
): Promise<ImportCounts> {
  const { body, contentType, finalUrl, etag, lastModified } = fetched;
  const feedSeconds = feedRefreshSeconds(body);
  const { toParse, alreadyImported } = await leaveOutImportedItems(deps, publisherId, body);
  const items = streamFeedEntries(toParse, {
    url: finalUrl,
    contentType,
    allowPrivateImages: deps.allowPrivateImages ?? false,
  });
  try {
    return await importFeedItems(
      deps.db,
      publisherId,
      {
        notModified: false,
        items,
        etag,
        lastModified,
        alreadyImported,
        bodyHash,
        feedRefreshSeconds: feedSeconds,
        nextFetchAfter: nextFetchAfter(now, fetched.refreshSeconds, feedSeconds),
      },
      now,
    );
  } catch (error) {
    if (error instanceof FeedError) return giveUp(error);
    throw error;
  }
}

/**
 * The body without the items the publisher already has, found before parsing: the items are cut out
 * of the bytes (splitFeedItems) and the guids they plainly state are checked in one query. An item
 * whose guid is not plain (entities, CDATA, several ids) stays and is recognised after parsing, by the
 * import; a body that cannot be cut safely is parsed whole.
 */
async function leaveOutImportedItems(
  deps: Pick<JobDeps, 'db'>,
  publisherId: string,
  body: Buffer,
): Promise<{ toParse: Buffer; alreadyImported: number }> {
  const split = splitFeedItems(body);
  const guids = split?.items.flatMap((item) => (item.guid === undefined ? [] : [item.guid])) ?? [];
  if (!split || guids.length === 0) return { toParse: body, alreadyImported: 0 };
  const imported = await findImportedGuids(deps.db, publisherId, guids);
  if (imported.size === 0) return { toParse: body, alreadyImported: 0 };
  const { body: toParse, leftOut } = withItemsLeftOut(
    split,
    (item) => item.guid !== undefined && imported.has(item.guid),
  );
  return { toParse, alreadyImported: leftOut };
}
