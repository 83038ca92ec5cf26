import type { Kysely } from 'kysely';
import { type Migration, type MigrationProvider, Migrator } from 'kysely/migration';
import pg from 'pg';
import * as initialSchema from './2026-11-22T0000-initial-schema';
import * as clientReadPath from './2026-11-22T0300-client-read-path';
import * as articleSlugPatternIndex from './2026-11-22T0400-article-slug-pattern-index';
import * as articleSourcePublishedAt from './2026-11-22T0400-article-source-published-at';
import * as siteChangesTouchArticles from './2026-11-22T0500-site-changes-touch-articles';
import * as articleBodyLz4 from './2026-11-22T0600-article-body-lz4';
import * as publishedAtMilliseconds from './2026-11-23T1600-published-at-milliseconds';
import * as userTokenVersion from './2026-11-23T1600-user-token-version';
import * as dashboardSessions from './2026-11-23T1700-dashboard-sessions';
import * as publisherDashboardReads from './2026-11-23T1710-publisher-dashboard-reads';
import * as articleListFilters from './2026-11-23T1800-article-list-filters';
import * as siteKeyLastUsed from './2026-11-23T1810-site-key-last-used';
import * as articleTitleTrigramIndex from './2026-11-23T1820-article-title-trigram-index';
import * as articleChangesOutbox from './2026-11-23T1900-article-changes-outbox';
import * as articleChangesLinksLinear from './2026-11-23T1901-article-changes-links-linear';
import * as webhooks from './2026-11-23T1905-webhooks';
import * as clientFiltersSearch from './2026-11-23T1910-client-filters-search';
import * as siteSyndication from './2026-11-23T1920-site-syndication';
import * as feedSteadyState from './2026-11-23T1930-feed-steady-state';
import * as publisherImportRules from './2026-11-23T1940-publisher-import-rules';
import * as contentChangeSites from './2026-11-23T1950-content-change-sites';
import * as slugLockAndTaken from './2026-11-24T0300-slug-lock-and-taken';
import * as webhookDeliveryAttempts from './2026-11-27T1200-webhook-delivery-attempts';
import * as searchTitlePlainText from './2026-11-27T1210-search-title-plain-text';
import * as articleReviewDecision from './2026-11-27T1220-article-review-decision';
import * as siteCorsAndPublicUrls from './2026-11-27T1311-site-cors-and-public-urls';
import * as scheduledActions from './2026-11-28T0100-scheduled-actions';
import * as articlePreviewLinks from './2026-11-28T0200-article-preview-links';
import * as articleRevisions from './2026-11-28T0300-article-revisions';
import * as auditLog from './2026-11-28T0400-audit-log';
import * as teamRoles from './2026-11-28T0500-team-roles';
import * as secondFactor from './2026-11-28T0600-second-factor';
import * as articleBylinesImagesCorrections from './2026-11-28T0700-article-bylines-images-corrections';
import * as publishableKeysAndCdnPurges from './2026-11-28T0800-publishable-keys-and-cdn-purges';
import * as articleRevisionCompactions from './2026-11-29T0200-article-revision-compactions';
import * as articleRevisionsLooseKeys from './2026-11-30T0100-article-revisions-loose-keys';
import * as historyAppendFunctions from './2026-12-01T0100-history-append-functions';
import * as articleEditRevision from './2026-12-02T0100-article-edit-revision';

/**
 * Every migration, by name. Names sort in the order they must run (ISO-date prefix).
 * Listed explicitly rather than read from disk, so the same list works under tsx, vitest and a bundle.
 */
export const migrations: Record<string, Migration> = {
  '2026-11-22T0000-initial-schema': initialSchema,
  '2026-11-22T0300-client-read-path': clientReadPath,
  '2026-11-22T0400-article-slug-pattern-index': articleSlugPatternIndex,
  '2026-11-22T0400-article-source-published-at': articleSourcePublishedAt,
  '2026-11-22T0500-site-changes-touch-articles': siteChangesTouchArticles,
  '2026-11-22T0600-article-body-lz4': articleBodyLz4,
  '2026-11-23T1600-published-at-milliseconds': publishedAtMilliseconds,
  '2026-11-23T1600-user-token-version': userTokenVersion,
  '2026-11-23T1700-dashboard-sessions': dashboardSessions,
  '2026-11-23T1710-publisher-dashboard-reads': publisherDashboardReads,
  '2026-11-23T1800-article-list-filters': articleListFilters,
  '2026-11-23T1810-site-key-last-used': siteKeyLastUsed,
  '2026-11-23T1820-article-title-trigram-index': articleTitleTrigramIndex,
  '2026-11-23T1900-article-changes-outbox': articleChangesOutbox,
  '2026-11-23T1901-article-changes-links-linear': articleChangesLinksLinear,
  '2026-11-23T1905-webhooks': webhooks,
  '2026-11-23T1910-client-filters-search': clientFiltersSearch,
  '2026-11-23T1920-site-syndication': siteSyndication,
  '2026-11-23T1930-feed-steady-state': feedSteadyState,
  '2026-11-23T1940-publisher-import-rules': publisherImportRules,
  '2026-11-23T1950-content-change-sites': contentChangeSites,
  '2026-11-24T0300-slug-lock-and-taken': slugLockAndTaken,
  '2026-11-27T1200-webhook-delivery-attempts': webhookDeliveryAttempts,
  '2026-11-27T1210-search-title-plain-text': searchTitlePlainText,
  '2026-11-27T1220-article-review-decision': articleReviewDecision,
  '2026-11-27T1311-site-cors-and-public-urls': siteCorsAndPublicUrls,
  '2026-11-28T0100-scheduled-actions': scheduledActions,
  '2026-11-28T0200-article-preview-links': articlePreviewLinks,
  '2026-11-28T0300-article-revisions': articleRevisions,
  '2026-11-28T0400-audit-log': auditLog,
  '2026-11-28T0500-team-roles': teamRoles,
  '2026-11-28T0600-second-factor': secondFactor,
  '2026-11-28T0700-article-bylines-images-corrections': articleBylinesImagesCorrections,
  '2026-11-28T0800-publishable-keys-and-cdn-purges': publishableKeysAndCdnPurges,
  '2026-11-29T0200-article-revision-compactions': articleRevisionCompactions,
  '2026-11-30T0100-article-revisions-loose-keys': articleRevisionsLooseKeys,
  '2026-12-01T0100-history-append-functions': historyAppendFunctions,
  '2026-12-02T0100-article-edit-revision': articleEditRevision,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Applies every pending migration; throws with the failing migration's name. */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results = [] } = await migrator.migrateToLatest();
  const failed = results.find((r) => r.status === 'Error');
  if (error) {
    const where = failed ? ` in ${failed.migrationName}` : '';
    throw new Error(`Migration failed${where}: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * Creates the database named in `connectionString` when it does not exist yet (first local start),
 * connecting to the server's `postgres` database to do it.
 */
export async function ensureDatabaseExists(connectionString: string): Promise<void> {
  const target = new URL(connectionString);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  if (!name) return;
  const server = new URL(connectionString);
  server.pathname = '/postgres';
  const client = new pg.Client({ connectionString: server.toString() });
  // A connection Postgres ends (a restart) fails the query in hand; with no listener, its 'error' event
  // would crash the process first.
  client.on('error', () => {});
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) await client.query(`create database "${name.replaceAll('"', '""')}"`);
  } catch (error) {
    // Another process created it between our check and create: that is what we wanted.
    if ((error as { code?: string }).code !== '42P04') throw error;
  } finally {
    await client.end();
  }
}
