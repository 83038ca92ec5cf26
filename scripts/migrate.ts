import { loadDatabaseUrl, loadOrExit, readLocalEnvFile } from '@newsroom/config';
import { createDb } from '@newsroom/domain';
import { ensureDatabaseExists, migrateToLatest } from '@newsroom/migrations';

/** Creates the database if needed and applies every pending migration. Used by `pnpm migrate` and `pnpm start`. */
export async function migrate(databaseUrl: string): Promise<string[]> {
  await ensureDatabaseExists(databaseUrl);
  const db = createDb({ connectionString: databaseUrl, max: 1, applicationName: 'newsroom-migrate' });
  try {
    return await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
}

/** migrate(), reporting on stderr in one line; a database that cannot be reached stops the process (exit 1). */
export async function migrateOrExit(databaseUrl: string): Promise<void> {
  try {
    const applied = await migrate(databaseUrl);
    process.stderr.write(
      applied.length ? `Migrations applied: ${applied.join(', ')}\n` : 'Database is up to date\n',
    );
  } catch (error) {
    process.stderr.write(
      `Could not migrate the database at ${new URL(databaseUrl).host}: ${(error as Error).message || String(error)}. ` +
        'Is Postgres running? See README "Quick start".\n',
    );
    process.exit(1);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  readLocalEnvFile();
  await migrateOrExit(loadOrExit(() => loadDatabaseUrl()));
}
