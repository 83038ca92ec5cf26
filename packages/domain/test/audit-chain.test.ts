import { createTestDatabase } from '@newsroom/test-support';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { insertAuditEvents } from '../src/audit/audit.repository';
import {
  appendAuditEvent,
  listAuditEvents,
  pruneAuditLog,
  streamAuditEvents,
  verifyAuditChain,
} from '../src/audit/audit.service';
import type { AuditEventInput } from '../src/audit/audit-event';
import { auditChanges, canonicalJson } from '../src/audit/audit-event';

const { db, destroy } = await createTestDatabase();
afterAll(destroy);

const event = (action: string, objectId: string | null = null): AuditEventInput => ({
  actor: { type: 'user', id: '00000000-0000-4000-8000-000000000001', label: 'ana@example.com' },
  address: '127.0.0.1',
  action,
  objectType: 'article',
  objectId,
  siteId: null,
  changes: { after: { title: action } },
});

/** Tampering as a database superuser would: triggers off for this transaction only. */
const asSuperuser = (statement: ReturnType<typeof sql>) =>
  db.transaction().execute(async (trx) => {
    await sql`set local session_replication_role = replica`.execute(trx);
    await statement.execute(trx);
  });

describe('audit rows', () => {
  it('redacts secrets whatever their value and cuts long values', () => {
    const changes = auditChanges({
      after: {
        name: 'Key',
        password: 'hunter2',
        newPassword: 'x',
        secret: 's',
        key: 'k',
        body: 'b'.repeat(500),
      },
    });
    expect(changes?.after).toMatchObject({
      name: 'Key',
      password: '[redacted]',
      newPassword: '[redacted]',
      secret: '[redacted]',
      key: '[redacted]',
    });
    expect(JSON.stringify(changes)).not.toMatch(/hunter2/);
    expect((changes?.after as { body: string } | undefined)?.body.length).toBeLessThanOrEqual(201);
  });

  it('serialises objects canonically (sorted keys at every depth)', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { f: 2, e: 3 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[1,{"e":3,"f":2}]},"b":1}',
    );
  });
});

describe('the hash chain', () => {
  it('chains each row to the one before and verifies end to end', async () => {
    const first = await appendAuditEvent(db, event('createArticle', 'a1'));
    const second = await db
      .transaction()
      .execute((trx) => appendAuditEvent(trx, event('updateArticle', 'a1')));
    expect(second.seq).toBe(first.seq + 1);
    expect(second.prevHash).toBe(first.hash);
    await expect(verifyAuditChain(db)).resolves.toMatchObject({ ok: true, checked: 2 });
  });

  it('stays one chain under concurrent appenders, each holding the head until its commit', async () => {
    const before = await verifyAuditChain(db);
    // Each transaction keeps the head locked a little after its append, so the others wait for it and chain to
    // the head it commits (audit_append's UPDATE re-reads the head it waited for); batches go through the same head.
    const single = (i: number) =>
      db.transaction().execute(async (trx) => {
        await appendAuditEvent(trx, event('updateArticle', `c${i}`));
        await sql`select pg_sleep(0.01)`.execute(trx);
      });
    const batch = (i: number) =>
      db.transaction().execute(async (trx) => {
        await insertAuditEvents(trx, [event('bulkArticles', `b${i}`), event('bulkArticles', `b${i}`)]);
        await sql`select pg_sleep(0.01)`.execute(trx);
      });
    await Promise.all([...[0, 1, 2, 3, 4, 5, 6, 7].map(single), ...[0, 1, 2].map(batch)]);
    await expect(verifyAuditChain(db)).resolves.toMatchObject({ ok: true, checked: before.checked + 14 });
    const { rows } = await sql<{ chained: boolean }>`
      select c.head_prev_hash = l.prev_hash and c.head_hash = l.hash as chained
      from audit_chain c join audit_log l on l.seq = c.head_seq`.execute(db);
    expect(rows).toEqual([{ chained: true }]);
  });

  it('stores nothing when the writing transaction rolls back', async () => {
    const before = await verifyAuditChain(db);
    await expect(
      db.transaction().execute(async (trx) => {
        await appendAuditEvent(trx, event('deleteArticle', 'a1'));
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await verifyAuditChain(db)).toEqual(before);
  });

  it("refuses UPDATE, DELETE and TRUNCATE from the API's connection", async () => {
    await expect(sql`update audit_log set action = 'x'`.execute(db)).rejects.toThrow(/append-only/);
    await expect(sql`delete from audit_log`.execute(db)).rejects.toThrow(/append-only/);
    await expect(sql`truncate audit_log`.execute(db)).rejects.toThrow(/append-only/);
    await expect(db.deleteFrom('audit_log').where('seq', '=', '1').execute()).rejects.toThrow(/append-only/);
    await expect(verifyAuditChain(db)).resolves.toMatchObject({ ok: true });
  });

  it('names an edited row', async () => {
    const target = await appendAuditEvent(db, event('publishArticle', 'a2'));
    await appendAuditEvent(db, event('unpublishArticle', 'a2'));
    await asSuperuser(
      sql`update audit_log set actor_label = 'someone-else' where seq = ${String(target.seq)}`,
    );
    await expect(verifyAuditChain(db)).resolves.toMatchObject({
      ok: false,
      firstBadSeq: target.seq,
      problem: 'edited',
    });
    // Even with its hash recomputed, the next row's prev_hash gives it away.
    await asSuperuser(sql`update audit_log set hash = repeat('a', 64) where seq = ${String(target.seq)}`);
    await expect(verifyAuditChain(db)).resolves.toMatchObject({ firstBadSeq: target.seq, problem: 'edited' });
    await asSuperuser(sql`update audit_log set actor_label = 'ana@example.com', hash = ${target.hash}
      where seq = ${String(target.seq)}`);
    await expect(verifyAuditChain(db)).resolves.toMatchObject({ ok: true });
  });

  it('names a deleted row, in the middle or at the end', async () => {
    const middle = await appendAuditEvent(db, event('approveArticle', 'a3'));
    const last = await appendAuditEvent(db, event('rejectArticle', 'a3'));
    await asSuperuser(sql`delete from audit_log where seq = ${String(last.seq)}`);
    await expect(verifyAuditChain(db)).resolves.toMatchObject({
      ok: false,
      firstBadSeq: last.seq,
      problem: 'removed',
    });
    await asSuperuser(sql`delete from audit_log where seq = ${String(middle.seq)}`);
    await expect(verifyAuditChain(db)).resolves.toMatchObject({
      ok: false,
      firstBadSeq: middle.seq,
      problem: 'removed',
    });
  });
});

describe('reading and pruning', () => {
  it('pages newest first by keyset, filtered, and streams oldest first', async () => {
    const { db: fresh, destroy: drop } = await createTestDatabase();
    try {
      for (let i = 0; i < 7; i++)
        await appendAuditEvent(fresh, event(i % 2 ? 'updateArticle' : 'createArticle', `x${i}`));
      const first = await listAuditEvents(fresh, { action: 'createArticle' }, { limit: 3 });
      expect(first.items.map((e) => e.objectId)).toEqual(['x6', 'x4', 'x2']);
      const second = await listAuditEvents(
        fresh,
        { action: 'createArticle' },
        { before: first.next ?? 0, limit: 3 },
      );
      expect(second.items.map((e) => e.objectId)).toEqual(['x0']);
      expect(second.next).toBeNull();
      const streamed = [];
      for await (const row of streamAuditEvents(fresh, {}, 2)) streamed.push(row.objectId);
      expect(streamed).toEqual(['x0', 'x1', 'x2', 'x3', 'x4', 'x5', 'x6']);

      // Retention: bounded batches, the chain's start moved so the rest still verifies.
      const later = new Date(Date.now() + 10 * 86_400_000);
      expect(await pruneAuditLog(fresh, { retentionDays: 1, now: later, batchSize: 2, maxBatches: 1 })).toBe(
        2,
      );
      await expect(verifyAuditChain(fresh)).resolves.toMatchObject({ ok: true, checked: 5, startSeq: 3 });
      expect(await pruneAuditLog(fresh, { retentionDays: 1, now: later, batchSize: 2 })).toBe(5);
      await expect(verifyAuditChain(fresh)).resolves.toMatchObject({ ok: true, checked: 0, startSeq: 8 });
      await appendAuditEvent(fresh, event('createArticle', 'after-prune'));
      await expect(verifyAuditChain(fresh)).resolves.toMatchObject({ ok: true, checked: 1 });
      // Nothing older than the retention: nothing goes.
      expect(await pruneAuditLog(fresh, { retentionDays: 30 })).toBe(0);
    } finally {
      await drop();
    }
  });
});
