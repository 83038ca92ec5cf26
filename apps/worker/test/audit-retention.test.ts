import { loadWorkerConfig } from '@newsroom/config';
import { appendAuditEvent, verifyAuditChain } from '@newsroom/domain';
import { createTestDatabase } from '@newsroom/test-support';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { startAuditRetention } from '../src/audit/audit-retention';

const { db, destroy } = await createTestDatabase();
afterAll(destroy);
const logger = pino({ level: 'silent' });

const env = { DATABASE_URL: 'postgres://unused/unused', REDIS_URL: 'redis://127.0.0.1:1' };

describe('AUDIT_RETENTION_DAYS', () => {
  it('keeps every event by default and takes a number of days', () => {
    expect(loadWorkerConfig(env).audit).toEqual({ retentionDays: null });
    expect(loadWorkerConfig({ ...env, AUDIT_RETENTION_DAYS: '3650' }).audit).toEqual({ retentionDays: 3650 });
    expect(() => loadWorkerConfig({ ...env, AUDIT_RETENTION_DAYS: '0' })).toThrow(/AUDIT_RETENTION_DAYS/);
    expect(startAuditRetention({ config: { audit: { retentionDays: null } }, db, logger })).toBeUndefined();
  });

  it('prunes older events through the pruning path; the rest of the chain still verifies', async () => {
    for (let i = 0; i < 5; i++)
      await appendAuditEvent(db, {
        actor: { type: 'system', id: null, label: null },
        address: null,
        action: 'createSite',
        objectType: 'site',
        objectId: String(i),
        siteId: null,
        changes: null,
      });
    const inTwoDays = new Date(Date.now() + 2 * 86_400_000);
    const retention = startAuditRetention({
      config: { audit: { retentionDays: 1 } },
      db,
      logger,
      intervalMs: 3_600_000,
      now: () => inTwoDays,
    });
    try {
      // The first run starts at once; runNow joins or follows it.
      await retention?.runNow();
      const rows = await db.selectFrom('audit_log').select('seq').execute();
      expect(rows).toEqual([]);
      await expect(verifyAuditChain(db)).resolves.toMatchObject({ ok: true, startSeq: 6 });
    } finally {
      await retention?.stop();
    }
  });
});
