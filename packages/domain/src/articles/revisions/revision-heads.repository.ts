import { sql } from 'kysely';
import type { Tx } from '../../db/create-db';
import type { ArticleRow, ArticleRowUpdate } from '../../db/tables';
import { toArticle, type VersionedArticle } from '../article';
import { hostSitesOf, rowVersion } from '../article.repository';
import { type RevisionHead, type Selected, toRevisionRow } from './article-revision.repository';

// The article with what the recorder needs of its newest revisions to record the next one, read or answered
// by the write itself: the newest's number, and, for a write that may collapse into the newest (an autosave),
// the two newest revisions' heads (number, author, source, kind; no data).

/**
 * What a write reads of the newest revisions: `heads` for one that may collapse into the newest (the recorder's
 * `headsNeeded`), else `number` (the newest's number alone: one index probe, no JSON to build or parse).
 */
export type NewestRevisionsRead = 'heads' | 'number';

/** The newest revision's number of the article in hand (null: none yet). */
const newestRevisionNumber = sql<
  number | null
>`(select n from article_revisions where article_id = articles.id order by n desc limit 1)`;

/** The two newest revisions of the article in hand, without their data (newest first), as JSON. */
const newestRevisionHeads = sql<
  Omit<Selected, 'data'>[]
>`(select coalesce(json_agg(r order by r.n desc), '[]')
  from (select n, created_at, actor_kind, actor_id, actor_label, source, reason, status, kind
    from article_revisions where article_id = articles.id order by n desc limit 2) r)`;

type ArticleWithHeadsRow = Omit<ArticleRow, 'excerpt'> & {
  host_sites: string[] | null;
  version: string;
  newest_revisions?: Omit<Selected, 'data'>[];
  newest_n?: number | null;
};

/** The article and what the recorder needs of its newest revisions to record the next one. */
export interface ArticleWithRevisionHeads {
  article: VersionedArticle;
  /** The newest revision's number (0: none yet). */
  newestN: number;
  /** The two newest revisions' heads, newest first; read only for `heads` (else empty). */
  newest: RevisionHead[];
}

function toArticleWithHeads(row: ArticleWithHeadsRow): ArticleWithRevisionHeads {
  const { newest_revisions: heads = [], newest_n: newestN, version, ...articleRow } = row;
  return {
    article: { ...toArticle(articleRow), version },
    newestN: newestN ?? heads[0]?.n ?? 0,
    newest: heads.map((revision) => {
      const { data: _data, ...head } = toRevisionRow({
        ...revision,
        created_at: new Date(revision.created_at),
        data: null,
      });
      return head;
    }),
  };
}

/**
 * The article as findArticleById reads it (the same columns, host sites and version, the same mapper) and,
 * in the same round trip, its two newest revisions without their data (newest first). Callers hold the
 * article's row lock (their write took it), which serialises every revision write of the article.
 */
export async function findArticleWithNewestRevisions(
  tx: Tx,
  id: string,
): Promise<ArticleWithRevisionHeads | undefined> {
  const row = await tx
    .selectFrom('articles')
    .selectAll('articles')
    .select(hostSitesOf)
    .select(rowVersion.as('version'))
    .select(newestRevisionHeads.as('newest_revisions'))
    .where('articles.id', '=', id)
    .executeTakeFirst();
  return row && toArticleWithHeads(row);
}

/**
 * updateArticleColumns answering, in the same statement, the article as written (as
 * findArticleWithNewestRevisions reads it: the admin read's columns, host sites and new version) and what
 * `read` asks of its newest revisions: a write and its revision's read in one round trip. Undefined when
 * nothing was written (unknown id, or not at one of `versions`).
 */
export async function updateArticleReturningRevisionHeads(
  tx: Tx,
  id: string,
  patch: ArticleRowUpdate,
  versions: readonly string[] | undefined,
  read: NewestRevisionsRead,
): Promise<ArticleWithRevisionHeads | undefined> {
  if (versions !== undefined && versions.length === 0) return undefined;
  const row = await tx
    .updateTable('articles')
    .set({ ...patch, updated_at: sql`now()` })
    .where('id', '=', id)
    .$if(versions !== undefined, (query) => query.where(rowVersion, 'in', [...(versions ?? [])]))
    .returningAll()
    .returning(hostSitesOf)
    .returning(rowVersion.as('version'))
    .$if(read === 'heads', (query) => query.returning(newestRevisionHeads.as('newest_revisions')))
    .$if(read === 'number', (query) => query.returning(newestRevisionNumber.as('newest_n')))
    .executeTakeFirst();
  return row && toArticleWithHeads(row);
}
