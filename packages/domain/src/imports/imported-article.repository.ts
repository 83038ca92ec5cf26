import { articleColumns } from '../articles/article.repository';
import {
  insertRevisions,
  type NewRevisionRow,
  revisionValues,
} from '../articles/revisions/article-revision.repository';
import type { Tx } from '../db/create-db';
import type { ArticleRow, NewArticleRow } from '../db/tables';

/** Rows per INSERT: far below Postgres' 65,535 bind parameters at ~17 columns a row. */
const rowsPerStatement = 1_000;

/**
 * Inserts imported articles in one statement (per 1,000 rows); an item whose guid the publisher
 * already has is skipped by the partial unique index `articles_publisher_guid_key`, whose
 * predicate the ON CONFLICT clause repeats literally (`where rss_feed_guid is not null`), as
 * Postgres requires to infer a partial index. Returns the inserted rows, whole (their first revisions are
 * made from them: no read after the insert).
 */
export async function insertImportedArticles(
  tx: Tx,
  rows: readonly NewArticleRow[],
): Promise<{ id: string; rssFeedGuid: string; row: ArticleRow }[]> {
  const inserted: { id: string; rssFeedGuid: string; row: ArticleRow }[] = [];
  for (let start = 0; start < rows.length; start += rowsPerStatement) {
    const batch = await tx
      .insertInto('articles')
      .values(rows.slice(start, start + rowsPerStatement))
      .onConflict((oc) =>
        oc.columns(['publisher_id', 'rss_feed_guid']).where('rss_feed_guid', 'is not', null).doNothing(),
      )
      .returning(articleColumns)
      .execute();
    for (const row of batch) inserted.push({ id: row.id, rssFeedGuid: row.rss_feed_guid as string, row });
  }
  return inserted;
}

/** Links each of the articles to each of the sites (an import's host sites), in one statement. */
export async function insertArticleSiteLinks(
  tx: Tx,
  articleIds: readonly string[],
  siteIds: readonly string[],
): Promise<void> {
  if (articleIds.length === 0 || siteIds.length === 0) return;
  await tx
    .insertInto('article_sites')
    .values(siteLinks(articleIds, siteIds))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/**
 * An import batch's site links (each article to each site) and its articles' first revisions, in one
 * statement: the revisions cost the import no round trip of their own.
 */
export async function insertSiteLinksAndRevisions(
  tx: Tx,
  articleIds: readonly string[],
  siteIds: readonly string[],
  revisions: readonly NewRevisionRow[],
): Promise<void> {
  if (articleIds.length === 0 || siteIds.length === 0) {
    await insertRevisions(tx, revisions);
    return;
  }
  if (revisions.length === 0) {
    await insertArticleSiteLinks(tx, articleIds, siteIds);
    return;
  }
  await tx
    .with('links', (db) =>
      db
        .insertInto('article_sites')
        .values(siteLinks(articleIds, siteIds))
        .onConflict((oc) => oc.doNothing()),
    )
    .insertInto('article_revisions')
    .values(revisions.map(revisionValues))
    .execute();
}

function siteLinks(articleIds: readonly string[], siteIds: readonly string[]) {
  return articleIds.flatMap((articleId) =>
    siteIds.map((siteId) => ({ article_id: articleId, site_id: siteId })),
  );
}
