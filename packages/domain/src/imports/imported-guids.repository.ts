import { type Expression, type RawBuilder, sql } from 'kysely';
import type { DbOrTx } from '../db/create-db';
import { executePrepared } from '../db/prepared-statements';

// Which of a feed's guids a publisher already has: decided here, by one SQL expression, wherever it is asked
// (the worker before parsing, the start of an import, each later batch, the test-feed preview).

/**
 * The guids among `guids` that a publisher (an id value or a column, e.g. `publishers.id`) has
 * already imported, as an array expression. Guids are unique per publisher, not globally.
 */
export function importedGuidsAmong(
  publisherId: Expression<string>,
  guids: readonly string[],
): RawBuilder<string[]> {
  return sql<string[]>`array(
    select a.rss_feed_guid from articles as a
    where a.publisher_id = ${publisherId} and a.rss_feed_guid = any(${[...guids]}::text[]))`;
}

/** Which of `guids` the publisher has already imported. */
export async function findImportedGuids(
  db: DbOrTx,
  publisherId: string,
  guids: readonly string[],
): Promise<Set<string>> {
  if (guids.length === 0) return new Set();
  const [row] = await executePrepared(
    db,
    db.selectNoFrom(importedGuidsAmong(sql.val(publisherId), guids).as('guids')),
  );
  return new Set(row?.guids);
}
