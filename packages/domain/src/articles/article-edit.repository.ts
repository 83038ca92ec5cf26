import { CompiledQuery, sql } from 'kysely';
import type { DbOrTx } from '../db/create-db';
import { isNoDataFound } from '../db/pg-errors';
import type { ArticleRow, ArticleRowUpdate } from '../db/tables';
import { markWritesOrFails } from '../db/unit-of-work';
import { toVersionedArticle, type VersionedArticle } from './article';
import { articleReadColumns, hostSitesOf, rowVersion } from './article.repository';
import { revisionRecordCall, type StatementRevision } from './revisions/revision-record-call';

type WrittenRow = Omit<ArticleRow, 'excerpt'> & { host_sites: string[] | null; version: string };

/** What the edit statement answers of the article: the admin read's columns, host sites and version. */
const answered = [...articleReadColumns, 'host_sites', 'version'].map((column) => `w.${column}`).join(', ');

/**
 * Writes `patch` to the article (`updated_at` moved) and answers it as written, as findArticleById reads it (the
 * same columns, host sites, new version); with `revision`, the database records its revision from the row as
 * written, in the same statement (`article_revision_record`: the snapshot as articleSnapshotJson builds it, an
 * autosave collapsed into the newest revision): no read, no statement of its own. Undefined when nothing was
 * written (unknown id, or not at one of `versions`).
 *
 * Outside a transaction the edit is one statement, atomic by itself, which fails (`article_not_written`,
 * no_data_found) when it matched no row: marked so (markWritesOrFails), it goes with its unit's closing statement
 * (the audit row) in one round trip, and that row is never committed for an edit that wrote nothing.
 */
export async function updateArticleContent(
  db: DbOrTx,
  id: string,
  patch: ArticleRowUpdate,
  versions: readonly string[] | undefined,
  revision: StatementRevision | null,
): Promise<VersionedArticle | undefined> {
  if (versions !== undefined && versions.length === 0) return undefined;
  const update = db
    .updateTable('articles')
    .set({ ...patch, updated_at: sql`now()` })
    .where('id', '=', id)
    .$if(versions !== undefined, (query) => query.where(rowVersion, 'in', [...(versions ?? [])]))
    .returning(articleReadColumns)
    .returning(hostSitesOf)
    .returning(rowVersion.as('version'))
    .$if(revision !== null, (query) => query.returning(sql`articles`.as('written')))
    .compile();
  const parameters = [...update.parameters];
  const next = (value: unknown) => `$${parameters.push(value)}`;
  const record = revision ? `, ${revisionRecordCall('w.written', 'w.host_sites', revision, next)}` : '';
  const alone = !db.isTransaction;
  const from = alone
    ? `(select) one left join w on true where case when w.id is null then article_not_written(${next(id)}) else true end`
    : 'w';
  const query = CompiledQuery.raw(
    `with w as (${update.sql}) select ${answered}${record} from ${from}`,
    parameters,
  );
  try {
    const { rows } = await db.executeQuery<WrittenRow>(alone ? markWritesOrFails(query) : query);
    return rows[0] && toVersionedArticle(rows[0]);
  } catch (error) {
    if (alone && isNoDataFound(error)) return undefined;
    throw error;
  }
}
