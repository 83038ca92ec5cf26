import { loadDatabaseUrl, loadOrExit } from '@newsroom/config';
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

if (import.meta.url === `file://${process.argv[1]}`) {
  const databaseUrl = loadOrExit(() => loadDatabaseUrl());
  const applied = await migrate(databaseUrl);
  process.stdout.write(applied.length ? `Applied: ${applied.join(', ')}\n` : 'Database is up to date\n');
}
