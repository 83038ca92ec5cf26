import { CompiledQuery, sql } from 'kysely';
import { revisionRecordCall, type StatementRevision } from '../articles/revisions/revision-record-call';
import type { Tx } from '../db/create-db';
import type { NewArticleRow } from '../db/tables';

/** Rows per INSERT: far below Postgres' 65,535 bind parameters at ~17 columns a row. */
const rowsPerStatement = 1_000;

/**
 * The host sites an import links its articles to (the publisher's defaults): their ids, for the links, and their
 * slugs, sorted as the admin read sorts them, for the first revisions' snapshots.
 */
export interface ImportHostSites {
  ids: readonly string[];
  slugs: readonly string[];
}

/**
 * Inserts imported articles, links each to the host sites and records its first revision, in one statement (per
 * 1,000 rows): the revision is built by the database from the row as inserted (`article_revision_record`, as an
 * edit's is), so nothing comes back but the revisions' numbers. An item whose guid the publisher already has is
 * skipped by the partial unique index `articles_publisher_guid_key`, whose predicate the ON CONFLICT clause repeats
 * literally (`where rss_feed_guid is not null`), as Postgres requires to infer a partial index: no row, no link, no
 * revision. Answers how many articles were inserted.
 */
export async function insertImportedArticles(
  tx: Tx,
  rows: readonly NewArticleRow[],
  sites: ImportHostSites,
  revision: StatementRevision,
): Promise<number> {
  let inserted = 0;
  for (let start = 0; start < rows.length; start += rowsPerStatement) {
    const insert = tx
      .insertInto('articles')
      .values(rows.slice(start, start + rowsPerStatement))
      .onConflict((oc) =>
        oc.columns(['publisher_id', 'rss_feed_guid']).where('rss_feed_guid', 'is not', null).doNothing(),
      )
      .returning(['id', sql`articles`.as('written')])
      .compile();
    const parameters = [...insert.parameters];
    const next = (value: unknown) => `$${parameters.push(value)}`;
    const links = `insert into article_sites (article_id, site_id) select ins.id, site.id from ins
      cross join unnest(${next(sites.ids)}::uuid[]) site(id) on conflict do nothing`;
    const record = revisionRecordCall('ins.written', `${next(sites.slugs)}::text[]`, revision, next);
    const { rows: recorded } = await tx.executeQuery(
      CompiledQuery.raw(
        `with ins as (${insert.sql}), links as (${links}) select ${record} from ins`,
        parameters,
      ),
    );
    inserted += recorded.length;
  }
  return inserted;
}
