import { inviteStaff, startPasswordReset, verifyAuditChain } from '@newsroom/domain';
import { sql } from 'kysely';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { insertAdmin } from './support/dashboard-accounts';
import { createTestApp } from './support/test-app';

// An audited change and its audit row commit in one transaction (docs/audit.md): when the row cannot be written
// the change is rolled back and the answer says so (503 AUDIT_NOT_WRITTEN, nothing changed); when the change
// fails, no row is written. The failure is injected with a trigger refusing inserts into audit_log.

const testApp = await createTestApp();
const { app, db, close } = testApp;
afterAll(close);
const { id: adminId, token } = await insertAdmin(app, db);

const send = (
  method: 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
  bearer: string | null = token,
) =>
  app.inject({
    method,
    url,
    headers: bearer ? { authorization: `Bearer ${bearer}` } : {},
    ...(payload ? { payload } : {}),
  });

const headSeq = async () =>
  Number((await db.selectFrom('audit_chain').select('head_seq').executeTakeFirstOrThrow()).head_seq);
const rowsAfter = (seq: number) =>
  db.selectFrom('audit_log').selectAll().where('seq', '>', String(seq)).orderBy('seq').execute();

await sql`create function refuse_audit_rows() returns trigger language plpgsql as $$
  begin raise exception 'audit log refused (test)'; end $$`.execute(db);
const breakAuditLog = () =>
  sql`create trigger refuse_audit_rows before insert on audit_log
      for each row execute function refuse_audit_rows()`.execute(db);
afterEach(async () => {
  await sql`drop trigger if exists refuse_audit_rows on audit_log`.execute(db);
});

let counter = 0;
const unique = (prefix: string) => `${prefix}-${++counter}`;
const newArticle = async () => {
  const response = await send('POST', '/api/v1/article', { title: unique('Atomic') });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string; title: string };
};
const titleOf = async (id: string) =>
  (await db.selectFrom('articles').select('title').where('id', '=', id).executeTakeFirstOrThrow()).title;

const expectNotWritten = (response: { statusCode: number; json: () => unknown }) => {
  expect(response.statusCode).toBe(503);
  expect(response.json()).toMatchObject({ code: 'AUDIT_NOT_WRITTEN' });
};

describe('when the audit row cannot be written', () => {
  it('rolls back an article edit (a transaction of several statements) and answers 503', async () => {
    const article = await newArticle();
    await breakAuditLog();
    expectNotWritten(await send('PUT', `/api/v1/article/${article.id}`, { title: 'Never saved' }));
    expect(await titleOf(article.id)).toBe(article.title);
    // Nothing else of the edit committed either: no revision, no change-feed entry past the creation's.
    const revisions = await db
      .selectFrom('article_revisions')
      .select(db.fn.countAll().as('n'))
      .where('article_id', '=', article.id)
      .executeTakeFirstOrThrow();
    await sql`drop trigger refuse_audit_rows on audit_log`.execute(db);
    // Nothing happened, so the same request may be sent again.
    const again = await send('PUT', `/api/v1/article/${article.id}`, { title: 'Saved the second time' });
    expect(again.statusCode, again.body).toBe(200);
    expect(await titleOf(article.id)).toBe('Saved the second time');
    const after = await db
      .selectFrom('article_revisions')
      .select(db.fn.countAll().as('n'))
      .where('article_id', '=', article.id)
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBeGreaterThan(Number(revisions.n));
  });

  it('rolls back a write of one statement (a site renamed) and a creation (a site added)', async () => {
    const slug = unique('atomic-site');
    const created = await send('POST', '/api/v1/site', { slug, name: 'Before' });
    expect(created.statusCode, created.body).toBe(201);
    const siteId = created.json().id as string;
    await breakAuditLog();
    expectNotWritten(await send('PUT', `/api/v1/site/${siteId}`, { name: 'After' }));
    const site = await db
      .selectFrom('sites')
      .select('name')
      .where('id', '=', siteId)
      .executeTakeFirstOrThrow();
    expect(site.name).toBe('Before');
    const otherSlug = unique('never-site');
    expectNotWritten(await send('POST', '/api/v1/site', { slug: otherSlug, name: 'Never' }));
    expect(await db.selectFrom('sites').select('id').where('slug', '=', otherSlug).execute()).toEqual([]);
  });

  it('leaves an invitation and a reset link unused, so they still work afterwards', async () => {
    const { invitation, token: invitationToken } = await inviteStaff(db, {
      email: `${unique('invitee')}@example.com`,
      role: 'editor',
      grants: [],
      invitedBy: adminId,
    });
    const { email } = await insertAdmin(app, db, { password: 'a first long pass phrase' });
    const reset = await startPasswordReset(db, email);
    if (!reset) throw new Error('no reset started');
    const password = { password: 'another long pass phrase 7' };
    await breakAuditLog();
    expectNotWritten(await send('POST', `/api/v1/auth/invitation/${invitationToken}`, password, null));
    expectNotWritten(await send('POST', `/api/v1/auth/password-reset/${reset.token}`, password, null));
    expect(await db.selectFrom('users').select('id').where('email', '=', invitation.email).execute()).toEqual(
      [],
    );
    await sql`drop trigger refuse_audit_rows on audit_log`.execute(db);
    const before = await headSeq();
    const accepted = await send('POST', `/api/v1/auth/invitation/${invitationToken}`, password, null);
    expect(accepted.statusCode, accepted.body).toBe(200);
    const resetDone = await send('POST', `/api/v1/auth/password-reset/${reset.token}`, password, null);
    expect(resetDone.statusCode, resetDone.body).toBe(204);
    expect((await rowsAfter(before)).map((row) => row.action)).toEqual(['acceptInvitation', 'resetPassword']);
  });
});

describe('when the change fails', () => {
  it('writes no row, also after the change had written part of itself', async () => {
    const taken = `${unique('taken')}@example.com`;
    await insertAdmin(app, db, { email: taken });
    // The invitation is consumed, then the login cannot be created (the e-mail is taken): all rolled back.
    const { token: invitationToken } = await inviteStaff(db, {
      email: `${unique('late')}@example.com`,
      role: 'editor',
      grants: [],
      invitedBy: adminId,
    });
    await db.updateTable('invitations').set({ email: taken }).where('email', 'like', 'late-%').execute();
    const slug = unique('dup-site');
    expect((await send('POST', '/api/v1/site', { slug, name: 'First' })).statusCode).toBe(201);
    const before = await headSeq();
    const conflict = await send('POST', `/api/v1/auth/invitation/${invitationToken}`, {
      password: 'a long enough pass phrase',
    });
    expect(conflict.statusCode, conflict.body).toBe(409);
    expect((await send('POST', '/api/v1/site', { slug, name: 'Second' })).statusCode).toBe(409);
    expect((await send('PUT', `/api/v1/article/${crypto.randomUUID()}`, { title: 'x' })).statusCode).toBe(
      404,
    );
    expect(await rowsAfter(before)).toEqual([]);
  });
});

describe('the chain', () => {
  it('names each of concurrent changes once, in order, and still verifies after the refused appends', async () => {
    const articles = await Promise.all([1, 2, 3, 4, 5, 6].map(() => newArticle()));
    const before = await headSeq();
    const answers = await Promise.all(
      articles.map((article) => send('PUT', `/api/v1/article/${article.id}`, { title: `${article.title}!` })),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(articles.map(() => 200));
    const rows = await rowsAfter(before);
    expect(rows.map((row) => row.object_id).sort()).toEqual(articles.map((article) => article.id).sort());
    expect(rows.map((row) => Number(row.seq))).toEqual(rows.map((_, index) => before + index + 1));
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true });
  });
});
