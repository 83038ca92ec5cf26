import { createTestDatabase } from '@newsroom/test-support';
import { sql } from 'kysely';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createArticle, editArticle, getArticle } from '../src/articles/article.service';
import type { RevisionWrite } from '../src/articles/revisions/revision-write';
import { pendingAudit, runAudited } from '../src/audit/audit-unit';
import { AuditNotWrittenError, ConflictError, NotFoundError, VersionMismatchError } from '../src/errors';
import { roundTrips } from './support/round-trips';

// `PUT /article/:id` outside a transaction: the update records its revision itself (article-edit.repository.ts)
// and goes with the request's audit row in one text, one round trip, both committed or neither.

const { db, destroy } = await createTestDatabase();
afterAll(destroy);
afterEach(() => vi.restoreAllMocks());
// An audit row this test can make Postgres refuse, as a full disk or a broken chain would.
await sql`create function refuse_audit() returns trigger language plpgsql as $$
  begin raise exception 'audit refused'; end $$`.execute(db);
await sql`create trigger refuse_audit before insert on audit_log for each row
  when (new.action = 'article.refused') execute function refuse_audit()`.execute(db);

const alice: RevisionWrite = {
  actor: { kind: 'user', id: 'u-alice', label: 'alice@example.com' },
  source: 'editor',
};
const content = (title: string) => ({
  title,
  body: '<p>Body</p>',
  tags: [],
  category: null,
  section: null,
  thumbnail: null,
  image: null,
});

const audited = <T>(objectId: string, change: () => Promise<T>, action = 'article.update') => {
  const pending = pendingAudit({
    actor: { type: 'user', id: null, label: 'alice@example.com' },
    address: '127.0.0.1',
    action,
    objectType: 'article',
    objectId,
    siteId: null,
    changes: { after: { title: 'x' } },
  });
  return { pending, run: () => runAudited(pending, change) };
};

const auditRows = async (objectId: string) =>
  (await db.selectFrom('audit_log').select('action').where('object_id', '=', objectId).execute()).map(
    (row) => row.action,
  );

const revisionTitles = async (articleId: string) =>
  (
    await sql<{ title: string }>`select data ->> 'title' as title from article_revisions
      where article_id = ${articleId} and kind = 'snapshot' order by n`.execute(db)
  ).rows.map((row) => row.title);

describe('an edit with its audit row', () => {
  it('is one round trip: the update, its revision and the audit row', async () => {
    const article = await createArticle(db, content('One'), [], alice);
    const { pending, run } = audited(article.id, () =>
      editArticle(db, article.id, { title: 'Two' }, [article.version], alice),
    );
    let edited: Awaited<ReturnType<typeof run>> | undefined;
    const sent = await roundTrips(async () => {
      edited = await run();
    });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/^with w as \(update "articles" set .*; select from audit_append\(/s);
    expect(edited?.title).toBe('Two');
    expect(edited?.version).not.toBe(article.version);
    expect(pending.written).toBe(true);
    expect(await auditRows(article.id)).toEqual(['article.update']);
    expect((await getArticle(db, article.id)).title).toBe('Two');
    // Revision 2 holds the article as written, as the API reads it.
    const { rows } = await sql<{ data: unknown }>`select data from article_revisions
      where article_id = ${article.id} and n = 2`.execute(db);
    const {
      id: _i,
      createdAt: _c,
      updatedAt: _u,
      version: _v,
      ...snapshot
    } = edited as NonNullable<typeof edited>;
    expect(rows[0]?.data).toEqual(JSON.parse(JSON.stringify(snapshot)));
  });

  it('writes neither when the article moved on (412), nor for an unknown article (404)', async () => {
    const article = await createArticle(db, content('Stale'), [], alice);
    const stale = audited(article.id, () => editArticle(db, article.id, { title: 'Lost?' }, ['1'], alice));
    await expect(stale.run()).rejects.toBeInstanceOf(VersionMismatchError);
    const unknown = '00000000-0000-4000-8000-000000000000';
    const missing = audited(unknown, () => editArticle(db, unknown, { title: 'Nobody' }, undefined, alice));
    await expect(missing.run()).rejects.toBeInstanceOf(NotFoundError);
    expect([stale.pending.written, missing.pending.written]).toEqual([false, false]);
    expect(await auditRows(article.id)).toEqual([]);
    expect(await auditRows(unknown)).toEqual([]);
    expect(await revisionTitles(article.id)).toEqual(['Stale']);
  });

  it('writes neither when the slug is taken (409)', async () => {
    const first = await createArticle(db, content('Taken slug'), [], alice);
    const second = await createArticle(db, content('Other'), [], alice);
    const { pending, run } = audited(second.id, () =>
      editArticle(db, second.id, { slug: first.slug }, undefined, alice),
    );
    await expect(run()).rejects.toBeInstanceOf(ConflictError);
    expect(pending.written).toBe(false);
    expect(await auditRows(second.id)).toEqual([]);
    expect(await revisionTitles(second.id)).toEqual(['Other']);
  });

  it('changes nothing when Postgres refuses the audit row (503 AUDIT_NOT_WRITTEN)', async () => {
    const article = await createArticle(db, content('Kept'), [], alice);
    const { pending, run } = audited(
      article.id,
      () => editArticle(db, article.id, { title: 'Unaudited' }, undefined, alice),
      'article.refused',
    );
    await expect(run()).rejects.toBeInstanceOf(AuditNotWrittenError);
    expect(pending.written).toBe(false);
    expect((await getArticle(db, article.id)).title).toBe('Kept');
    expect(await revisionTitles(article.id)).toEqual(['Kept']);
  });

  it('is one round trip without an audit row too, and in a transaction its caller holds, the statement as it is', async () => {
    const article = await createArticle(db, content('Alone'), [], alice);
    const alone = await roundTrips(() => editArticle(db, article.id, { title: 'Alone 2' }, undefined, alice));
    expect(alone).toHaveLength(1);
    const held = await roundTrips(() =>
      db.transaction().execute((tx) => editArticle(tx, article.id, { title: 'Alone 3' }, undefined, alice)),
    );
    expect(held).toHaveLength(2);
    expect(held[0]).toMatch(/^begin; with w as \(update "articles" set/);
    expect(held[1]).toBe('commit');
    expect(await revisionTitles(article.id)).toEqual(['Alone', 'Alone 2', 'Alone 3']);
  });
});
