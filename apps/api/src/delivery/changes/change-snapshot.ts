import { currentChangePosition, findPlainArticlesPage } from '@newsroom/domain';
import { encodeCursor, encodeSnapshotCursor, type SnapshotPosition } from './change-cursor';
import { type ChangePageSources, type ChangeScope, changeItemJson, changesBody } from './change-page';

/**
 * The change feed from nothing (`initial=true`, as Contentful's Sync): first every article the scope sees, as
 * upserts, newest first, `limit` a page (a keyset walk, so articles published meanwhile never shift it), then
 * the changes since the position taken when it began. Changes made during the walk are served again after it:
 * harmless, as an upsert replaces and a delete of an absent article does nothing (the same argument as the
 * cursor taken before /client/all).
 */
export async function startSnapshot(sources: ChangePageSources, scope: ChangeScope, limit: number) {
  const start = await currentChangePosition(sources.db);
  return snapshotPage(sources, scope, { start, after: null }, limit);
}

/** The page of the walk after `position`; its last page hands over to the change feed (hasMore: read on). */
export async function snapshotPage(
  sources: ChangePageSources,
  scope: ChangeScope,
  position: SnapshotPosition,
  limit: number,
): Promise<Buffer> {
  const listing = { siteId: scope.siteId, aggregatedOnly: false, tag: null, category: null, section: null };
  const window = { from: position.after, fromExclusive: true, skip: 0, limit: limit + 1 };
  const articles = await findPlainArticlesPage(sources.db, listing, window);
  const served = articles.slice(0, limit);
  const items = served.map((article) => {
    const cursor = encodeSnapshotCursor({
      start: position.start,
      after: { publishedAt: article.publishedAt as Date, id: article.id },
    });
    const json = Buffer.from(sources.serializeArticle(article), 'utf8');
    return changeItemJson(cursor, article.id, article.slug, json);
  });
  const last = served.at(-1);
  const next =
    articles.length > limit && last
      ? encodeSnapshotCursor({
          start: position.start,
          after: { publishedAt: last.publishedAt as Date, id: last.id },
        })
      : encodeCursor(position.start);
  // hasMore stays true on the last page of the walk: the changes made meanwhile follow at once.
  return changesBody(items, next, true);
}
