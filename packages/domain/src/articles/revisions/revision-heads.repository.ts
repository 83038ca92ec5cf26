import { sql } from 'kysely';
import type { Tx } from '../../db/create-db';
import { toVersionedArticle, type VersionedArticle } from '../article';
import { articleReadColumns, hostSitesOf, rowVersion } from '../article.repository';

/** The newest revision's number of the article in hand (null: none yet). */
const newestRevisionNumber = sql<
  number | null
>`(select n from article_revisions where article_id = articles.id order by n desc limit 1)`;

/** The article and the number of its newest revision (0: none yet): what the recorder needs to record the next. */
export interface ArticleWithNewestRevision {
  article: VersionedArticle;
  newestN: number;
}

/**
 * The article as findArticleById reads it (the same columns, host sites and version, the same mapper) and, in the
 * same round trip, its newest revision's number. Callers hold the article's row lock (their write took it), which
 * serialises every revision write of the article.
 */
export async function findArticleWithNewestRevision(
  tx: Tx,
  id: string,
): Promise<ArticleWithNewestRevision | undefined> {
  const row = await tx
    .selectFrom('articles')
    .select(articleReadColumns)
    .select(hostSitesOf)
    .select(rowVersion.as('version'))
    .select(newestRevisionNumber.as('newest_n'))
    .where('articles.id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const { newest_n: newestN, ...articleRow } = row;
  return { article: toVersionedArticle(articleRow), newestN: newestN ?? 0 };
}
