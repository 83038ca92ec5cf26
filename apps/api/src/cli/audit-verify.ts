import { loadMigrateConfig, loadOrExit, readLocalEnvFile } from '@newsroom/config';
import { createDb } from '@newsroom/domain';
import { auditVerifyReport } from './audit-verify-report';

// `pnpm audit:verify`: walks the audit chain of the database at DATABASE_URL from its start to its head.
// Exit 0 when every row verifies, 1 naming the first edited or removed row (docs/audit.md).

readLocalEnvFile();
const { databaseUrl } = loadOrExit(() => loadMigrateConfig());
const db = createDb({ connectionString: databaseUrl, max: 1, applicationName: 'newsroom-audit-verify' });
try {
  const { exitCode, line } = await auditVerifyReport(db);
  (exitCode === 0 ? process.stdout : process.stderr).write(`${line}\n`);
  process.exitCode = exitCode;
} catch (error) {
  process.stderr.write(`audit:verify failed: ${(error as Error).message}\n`);
  process.exitCode = 2;
} finally {
  await db.destroy();
}
