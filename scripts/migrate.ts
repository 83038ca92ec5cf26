import { loadMigrateConfig, loadOrExit, readLocalEnvFile } from '@newsroom/config';
import { applySearchLanguage, createDb, DomainValidationError } from '@newsroom/domain';
import { ensureDatabaseExists, migrateToLatest } from '@newsroom/migrations';

/** What `migrate` did: the migrations applied, and whether the search language changed (vectors recomputed). */
export interface MigrateResult {
  applied: string[];
  searchLanguageChanged: boolean;
}

/**
 * Creates the database if needed, applies every pending migration, then makes `searchLanguage` the one the
 * search vectors use (recomputing them when it changed: a one-off cost, kept out of the API's boot). Used by
 * `pnpm migrate`, `pnpm start` and `pnpm dev`, and the compose `migrate` service.
 */
export async function migrate(databaseUrl: string, searchLanguage: string): Promise<MigrateResult> {
  await ensureDatabaseExists(databaseUrl);
  const db = createDb({ connectionString: databaseUrl, max: 1, applicationName: 'newsroom-migrate' });
  try {
    const applied = await migrateToLatest(db);
    return { applied, searchLanguageChanged: await applySearchLanguage(db, searchLanguage) };
  } finally {
    await db.destroy();
  }
}

/** migrate(), reporting on stderr; a database that cannot be reached stops the process (exit 1). */
export async function migrateOrExit(config: { databaseUrl: string; searchLanguage: string }): Promise<void> {
  const { databaseUrl, searchLanguage } = config;
  try {
    const { applied, searchLanguageChanged } = await migrate(databaseUrl, searchLanguage);
    process.stderr.write(
      applied.length ? `Migrations applied: ${applied.join(', ')}\n` : 'Database is up to date\n',
    );
    if (searchLanguageChanged) {
      process.stderr.write(`Search language changed to ${searchLanguage}: search vectors recomputed\n`);
    }
  } catch (error) {
    if (error instanceof DomainValidationError) {
      process.stderr.write(`SEARCH_LANGUAGE: ${error.message} (\\dF in psql lists them)\n`);
      process.exit(1);
    }
    process.stderr.write(
      `Could not migrate the database at ${new URL(databaseUrl).host}: ${(error as Error).message || String(error)}. ` +
        'Is Postgres running? See README "Quick start".\n',
    );
    process.exit(1);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  readLocalEnvFile();
  await migrateOrExit(loadOrExit(() => loadMigrateConfig()));
}
