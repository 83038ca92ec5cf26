import { sql } from 'kysely';
import type { Db } from '../db/create-db';
import { DomainValidationError } from '../errors';

/**
 * Makes `language` (a Postgres text search configuration) the one the stored search vectors and the search
 * queries use. When it differs from the stored one, every article's vector is recomputed, in one transaction
 * (the vector trigger runs on `update ... set title = title`): a one-off cost of about a second per 10,000
 * articles. Run by `pnpm migrate` (scripts/migrate.ts), not at API boot; concurrent runs queue on the settings row, the second finds it done.
 * Rewriting the rows also records every published article in the change outbox (change feed and webhooks
 * report them as updated): a rare operator action, documented in docs/client-api.md.
 * Returns whether anything changed.
 */
export async function applySearchLanguage(db: Db, language: string): Promise<boolean> {
  const known = await sql<{ same: boolean | null }>`
    select (select language from search_settings) = (select oid from pg_ts_config where cfgname = ${language})
      as same`.execute(db);
  const same = known.rows[0]?.same;
  if (same === true) return false;
  if (same === null) {
    const exists = await sql`select 1 from pg_ts_config where cfgname = ${language}`.execute(db);
    if (exists.rows.length === 0) {
      throw new DomainValidationError('UNKNOWN_SEARCH_LANGUAGE', `No text search configuration ${language}`);
    }
  }
  return db.transaction().execute(async (tx) => {
    await sql`set local lock_timeout = '30s'`.execute(tx);
    await sql`set local statement_timeout = '30min'`.execute(tx);
    const { rows } = await sql<{ language: string }>`
      select language::text as language from search_settings for update`.execute(tx);
    const config = await sql<{ oid: string }>`select oid::regconfig::text as oid from pg_ts_config
      where cfgname = ${language}`.execute(tx);
    if (rows[0]?.language === config.rows[0]?.oid) return false;
    await sql`update search_settings set language = (select oid from pg_ts_config where cfgname = ${language})`.execute(
      tx,
    );
    await sql`update articles set title = title`.execute(tx);
    return true;
  });
}
