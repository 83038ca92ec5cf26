import { type ExpressionBuilder, sql } from 'kysely';
import type { DbOrTx } from '../db/create-db';
import type { Database, NewPublisherRow, PublisherRowUpdate } from '../db/tables';
import { offsetOf, type Page, type PageRequest } from '../shared/page';
import { type Publisher, toPublisher } from './publisher';

/** The e-mail of the publisher's (first) login. */
function loginEmailOf(eb: ExpressionBuilder<Database, 'publishers'>) {
  return eb
    .selectFrom('users')
    .select('users.email')
    .whereRef('users.publisher_id', '=', 'publishers.id')
    .orderBy('users.created_at')
    .limit(1)
    .as('email');
}

/** The publisher's default host-site slugs, sorted, as one array column. */
function defaultSitesOf(eb: ExpressionBuilder<Database, 'publishers'>) {
  return eb
    .selectFrom('publisher_default_sites')
    .innerJoin('sites', 'sites.id', 'publisher_default_sites.site_id')
    .whereRef('publisher_default_sites.publisher_id', '=', 'publishers.id')
    .select(sql<string[]>`coalesce(array_agg(sites.slug order by sites.slug), '{}')`.as('default_host_sites'))
    .as('default_host_sites');
}

function selectPublishers(db: DbOrTx) {
  return db.selectFrom('publishers').selectAll('publishers').select(loginEmailOf).select(defaultSitesOf);
}

export async function findPublisherById(db: DbOrTx, id: string): Promise<Publisher | undefined> {
  const row = await selectPublishers(db).where('publishers.id', '=', id).executeTakeFirst();
  return row && toPublisher(row);
}

export interface PublisherFilter {
  approved?: boolean;
  disabled?: boolean;
}

/** One page of publishers, by name. */
export async function findPublishers(
  db: DbOrTx,
  filter: PublisherFilter,
  page: PageRequest,
): Promise<Page<Publisher>> {
  let query = db.selectFrom('publishers');
  if (filter.approved !== undefined) query = query.where('publishers.approved', '=', filter.approved);
  if (filter.disabled !== undefined) {
    query = query.where('publishers.disabled_at', filter.disabled ? 'is not' : 'is', null);
  }
  const [rows, counted] = await Promise.all([
    query
      .selectAll('publishers')
      .select(loginEmailOf)
      .select(defaultSitesOf)
      .orderBy('publishers.name')
      .orderBy('publishers.id')
      .limit(page.limit)
      .offset(offsetOf(page))
      .execute(),
    query.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toPublisher), total: Number(counted.total) };
}

/** Every publisher's id and name, by name (the rows of the monthly report). */
export async function findPublisherNames(db: DbOrTx): Promise<{ id: string; name: string }[]> {
  return db.selectFrom('publishers').select(['id', 'name']).orderBy('name').orderBy('id').execute();
}

export async function insertPublisher(db: DbOrTx, row: NewPublisherRow): Promise<string> {
  const inserted = await db.insertInto('publishers').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

/** Updates columns of one publisher (and its updated_at); false when there is no such publisher. */
export async function updatePublisherColumns(
  db: DbOrTx,
  id: string,
  patch: PublisherRowUpdate,
): Promise<boolean> {
  const result = await db
    .updateTable('publishers')
    .set({ ...patch, updated_at: sql`now()` })
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Disables a publisher (keeping the first disable time if it already is) or enables it. */
export async function updatePublisherDisabled(db: DbOrTx, id: string, disabled: boolean): Promise<boolean> {
  const result = await db
    .updateTable('publishers')
    .set({
      disabled_at: disabled ? sql`coalesce(disabled_at, now())` : null,
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Replaces the publisher's default host sites with exactly `siteIds`. Call inside a transaction. */
export async function replacePublisherDefaultSites(
  db: DbOrTx,
  publisherId: string,
  siteIds: readonly string[],
): Promise<void> {
  await db.deleteFrom('publisher_default_sites').where('publisher_id', '=', publisherId).execute();
  if (siteIds.length > 0) {
    await db
      .insertInto('publisher_default_sites')
      .values(siteIds.map((siteId) => ({ publisher_id: publisherId, site_id: siteId })))
      .execute();
  }
}

/** Deletes a publisher; its logins go with it (cascade), its articles stay (publisher_id set null). */
export async function deletePublisherById(db: DbOrTx, id: string): Promise<boolean> {
  const result = await db.deleteFrom('publishers').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
