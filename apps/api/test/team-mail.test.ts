import { afterAll, describe, expect, it } from 'vitest';
import { insertArticle, insertSite } from './support/content-fixtures';
import { bearer, insertAdmin } from './support/dashboard-accounts';
import { insertStaff } from './support/policy/staff-fixtures';
import { linkIn, startSmtpListener } from './support/smtp-listener';
import { createTestApp } from './support/test-app';

const smtp = await startSmtpListener();
const testApp = await createTestApp({
  env: {
    SMTP_URL: smtp.url,
    DASHBOARD_URL: 'https://dashboard.example',
    RATE_LIMIT_PASSWORD_RESET_IP: '8/1h',
  },
});
const { app, db } = testApp;
afterAll(async () => {
  await testApp.close();
  await smtp.close();
});

const admin = await insertAdmin(app, db);
const siteA = await insertSite(db, 'mail-site-a');
const siteB = await insertSite(db, 'mail-site-b');
const password = 'a long enough password';

const logIn = (email: string, pass: string) =>
  app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password: pass } });

describe('invitations through a real SMTP listener', () => {
  it('invites an editor of one site, who sets a password once and then publishes there only', async () => {
    const invited = await app.inject({
      method: 'POST',
      url: '/api/v1/users/invitations',
      headers: bearer(admin.token),
      payload: {
        email: 'new.editor@example.com',
        role: 'editor',
        grants: [{ siteId: siteA, role: 'editor' }],
      },
    });
    expect(invited.statusCode).toBe(201);
    // Sent over SMTP: the answer carries no link.
    expect(invited.json()).toMatchObject({ mail: 'sent', developmentLink: null });
    const mail = await smtp.next();
    expect(mail.to).toBe('new.editor@example.com');
    const { path, token } = linkIn(mail);
    expect(mail.text).toContain(`https://dashboard.example${path}`);

    const preview = await app.inject(`/api/v1/auth/invitation/${token}`);
    expect(preview.json()).toMatchObject({ email: 'new.editor@example.com', role: 'editor' });
    const weak = await app.inject({
      method: 'POST',
      url: `/api/v1/auth/invitation/${token}`,
      payload: { password: 'short' },
    });
    expect(weak.statusCode).toBe(400);
    const accepted = await app.inject({
      method: 'POST',
      url: `/api/v1/auth/invitation/${token}`,
      payload: { password },
    });
    expect(accepted.statusCode).toBe(200);
    const again = await app.inject({
      method: 'POST',
      url: `/api/v1/auth/invitation/${token}`,
      payload: { password },
    });
    expect(again.statusCode).toBe(404);
    expect(again.json().code).toBe('INVITATION_NOT_FOUND');

    const session = await logIn('new.editor@example.com', password);
    expect(session.statusCode).toBe(200);
    const editorToken = session.json().token as string;
    const onA = await insertArticle(db, { status: 'draft', siteIds: [siteA] });
    const onB = await insertArticle(db, { status: 'draft', siteIds: [siteB] });
    expect(
      (
        await app.inject({
          method: 'PUT',
          url: `/api/v1/article/publish/${onA.id}`,
          headers: bearer(editorToken),
        })
      ).statusCode,
    ).toBe(200);
    const refused = await app.inject({
      method: 'PUT',
      url: `/api/v1/article/publish/${onB.id}`,
      headers: bearer(editorToken),
    });
    expect(refused.statusCode).toBe(403);
  });

  it('refuses an expired invitation link', async () => {
    await app.inject({
      method: 'POST',
      url: '/api/v1/users/invitations',
      headers: bearer(admin.token),
      payload: { email: 'late@example.com', role: 'contributor', grants: [] },
    });
    const { token } = linkIn(await smtp.next());
    await db
      .updateTable('invitations')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('email', '=', 'late@example.com')
      .execute();
    const accepted = await app.inject({
      method: 'POST',
      url: `/api/v1/auth/invitation/${token}`,
      payload: { password },
    });
    expect(accepted.statusCode).toBe(404);
  });

  it('refuses to invite an e-mail that has a login already', async () => {
    const taken = await app.inject({
      method: 'POST',
      url: '/api/v1/users/invitations',
      headers: bearer(admin.token),
      payload: { email: admin.email, role: 'editor', grants: [] },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe('EMAIL_TAKEN');
  });
});

describe('forgot password through a real SMTP listener', () => {
  it('answers the same whether the e-mail exists or not, and mails only a login that exists', async () => {
    const user = await insertStaff(app, db, 'contributor', { password });
    const sent = smtp.received.length;
    const unknown = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/password-reset',
      payload: { email: 'nobody@example.com' },
    });
    const known = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/password-reset',
      payload: { email: user.email },
    });
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.body).toBe(known.body);
    const mail = await smtp.next();
    expect(mail.to).toBe(user.email);
    expect(smtp.received.length).toBe(sent + 1);

    const { token } = linkIn(mail);
    const reset = await app.inject({
      method: 'POST',
      url: `/api/v1/auth/password-reset/${token}`,
      payload: { password: 'a brand new password' },
    });
    expect(reset.statusCode).toBe(204);
    // Older tokens end; the new password works; the link works once.
    expect((await app.inject({ url: '/api/v1/auth/me', headers: bearer(user.token) })).statusCode).toBe(401);
    expect((await logIn(user.email, 'a brand new password')).statusCode).toBe(200);
    const again = await app.inject({
      method: 'POST',
      url: `/api/v1/auth/password-reset/${token}`,
      payload: { password: 'another new password' },
    });
    expect(again.statusCode).toBe(404);
  });

  it('sends at most 3 reset e-mails per address an hour, with the same answer after', async () => {
    const user = await insertStaff(app, db, 'reviewer', { password });
    const before = smtp.received.length;
    const answers = [];
    for (let i = 0; i < 4; i += 1)
      answers.push(
        await app.inject({
          method: 'POST',
          url: '/api/v1/auth/password-reset',
          payload: { email: user.email },
        }),
      );
    expect(new Set(answers.map((answer) => `${answer.statusCode} ${answer.body}`)).size).toBe(1);
    for (let i = 0; i < 3; i += 1) await smtp.next();
    expect(smtp.received.length).toBe(before + 3);
  });

  it('limits "forgot password" requests per client address (429)', async () => {
    // This file's address made 6 requests above; the limit is 8 an hour.
    const statuses = [];
    for (let i = 0; i < 4; i += 1)
      statuses.push(
        (
          await app.inject({
            method: 'POST',
            url: '/api/v1/auth/password-reset',
            payload: { email: `x${i}@example.com` },
          })
        ).statusCode,
      );
    expect(statuses).toEqual([202, 202, 429, 429]);
  });
});

describe('without SMTP_URL', () => {
  it('refuses invitations in production with 503 naming SMTP_URL, and has no outbox page', async () => {
    const production = await createTestApp({ env: { NODE_ENV: 'production' } });
    try {
      const owner = await insertAdmin(production.app, production.db);
      const refused = await production.app.inject({
        method: 'POST',
        url: '/api/v1/users/invitations',
        headers: bearer(owner.token),
        payload: { email: 'someone@example.com', role: 'editor', grants: [] },
      });
      expect(refused.statusCode).toBe(503);
      expect(refused.json()).toMatchObject({ code: 'MAIL_NOT_CONFIGURED' });
      expect(refused.json().message).toContain('SMTP_URL');
      expect(await production.db.selectFrom('invitations').select('id').execute()).toEqual([]);
      expect((await production.app.inject('/dev/outbox')).statusCode).toBe(404);
    } finally {
      await production.close();
    }
  });
});
