import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { appendAuditEvent } from '@newsroom/domain';
import { createTestDatabase, entryPointCwd } from '@newsroom/test-support';
import { sql } from 'kysely';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { auditVerifyReport } from '../src/cli/audit-verify-report';

// `pnpm audit:verify` through its real entry point (a tsx process: 1-3 s each on a busy machine).
vi.setConfig({ testTimeout: 60_000 });

const root = resolve(import.meta.dirname, '../../..');
const tsx = resolve(root, 'node_modules/.bin/tsx');
const { db, url, destroy } = await createTestDatabase();
afterAll(destroy);

async function auditVerify() {
  const child = spawn(tsx, [resolve(root, 'apps/api/src/cli/audit-verify.ts')], {
    cwd: entryPointCwd,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', DATABASE_URL: url },
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const [code] = await once(child, 'exit');
  return { code: code as number, output };
}

const append = (action: string) =>
  appendAuditEvent(db, {
    actor: { type: 'system', id: null, label: 'test' },
    address: null,
    action,
    objectType: 'site',
    objectId: action,
    siteId: null,
    changes: { after: { name: action } },
  });

/** Tampering as a database superuser would: triggers off for this transaction only. */
const tamper = (statement: ReturnType<typeof sql>) =>
  db.transaction().execute(async (trx) => {
    await sql`set local session_replication_role = replica`.execute(trx);
    await statement.execute(trx);
  });

describe('pnpm audit:verify', () => {
  it('exits 0 on an intact chain, then 1 naming the first edited row', async () => {
    for (const action of ['createSite', 'updateSite', 'deleteSite', 'createSite']) await append(action);
    const intact = await auditVerify();
    expect(intact).toMatchObject({ code: 0, output: expect.stringMatching(/intact: 4 rows \(seq 1 to 4\)/) });

    await tamper(sql`update audit_log set changes = '{"after":{"name":"forged"}}' where seq = 2`);
    const edited = await auditVerify();
    expect(edited.code).toBe(1);
    expect(edited.output).toMatch(/broken at row 2 \(edited\)/);
  });

  it('names a deleted row', async () => {
    await tamper(sql`update audit_log set changes = '{"after":{"name":"updateSite"}}' where seq = 2`);
    expect((await auditVerifyReport(db)).exitCode).toBe(0);
    await tamper(sql`delete from audit_log where seq = 3`);
    expect(await auditVerifyReport(db)).toEqual({
      exitCode: 1,
      line: expect.stringMatching(/broken at row 3 \(removed\): row 3 is missing/),
    });
  });
});
