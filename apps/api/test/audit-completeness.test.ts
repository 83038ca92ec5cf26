import { inviteStaff, relayArticleChanges, startPasswordReset } from '@newsroom/domain';
import { afterAll, describe, expect, it } from 'vitest';
import { createUploadSigner } from '../src/storage/upload-signer';
import { insertAdmin } from './support/dashboard-accounts';
import { createDashboardUsers, insertImportedArticle } from './support/dashboard-users';
import { createTestApp } from './support/test-app';
import { authenticator, controlSecondFactorClock } from './support/two-factor';

// Derived from the OpenAPI document: every operation of the dashboard API that changes state writes exactly one
// audit row naming its actor and object; every read writes none (an export is the one audited read). A new
// non-GET operation fails here until it has a case below (or is declared `config.audit = false` and listed).

const storage = createUploadSigner({
  accessKeyId: 'key',
  secretAccessKey: 'secret',
  region: 'us-east-1',
  bucket: 'media',
  endpoint: 'http://127.0.0.1:9',
  publicUrl: undefined,
});
const testApp = await createTestApp({ storage });
const { app, db, close } = testApp;
afterAll(close);
const { adminToken, publisherToken, publisherId } = await createDashboardUsers(testApp);
const adminId = (
  await db.selectFrom('users').select('id').where('role', '=', 'admin').executeTakeFirstOrThrow()
).id;
const publisherUserId = (
  await db.selectFrom('users').select('id').where('publisher_id', '=', publisherId).executeTakeFirstOrThrow()
).id;

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const send = (
  method: Method,
  url: string,
  token?: string,
  payload?: object,
  headers: Record<string, string> = {},
) =>
  app.inject({
    method,
    url,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    ...(payload ? { payload } : {}),
  });

let counter = 0;
const unique = (prefix: string) => `${prefix}-${++counter}`;
const created = async (method: Method, url: string, payload: object) => {
  const response = await send(method, url, adminToken, payload);
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response.json().id as string;
};
const newDraft = () => created('POST', '/api/v1/article', { title: unique('Audit draft') });
const newPublished = async () => {
  const id = await newDraft();
  await send('PUT', `/api/v1/article/publish/${id}`, adminToken);
  return id;
};
const newPending = async () =>
  (await insertImportedArticle(testApp, publisherId, unique('Audit pending'))).id;
const newSite = () => created('POST', '/api/v1/site', { slug: unique('site'), name: 'Site' });
const newPublisher = () =>
  created('POST', '/api/v1/publisher', {
    name: unique('Desk'),
    email: `${unique('desk')}@example.com`,
    password: 'correct horse battery staple',
  });
const newWebhook = () =>
  created('POST', '/api/v1/webhooks', {
    url: 'https://hooks.example.com/audit',
    events: ['article.published'],
  });

const inHours = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();
const newScheduledAction = async () =>
  created('POST', '/api/v1/scheduled-actions', {
    articleId: await newDraft(),
    kind: 'publish',
    dueAt: inHours(24),
  });
const newRelease = async () =>
  created('POST', '/api/v1/releases', {
    name: unique('Release'),
    dueAt: inHours(24),
    actions: [{ articleId: await newDraft(), kind: 'publish' }],
  });

const password = 'correct horse battery staple';
const signIn = async () => {
  const email = `${unique('signin')}@example.com`;
  const { id, token } = await insertAdmin(app, db, { email, password });
  return { email, id, token };
};

// The second factor: a user enrolled by bearer token (setup, then confirm with the authenticator's code).
const clock = controlSecondFactorClock(app);
const enrolled = async () => {
  const { email, id, token } = await signIn();
  const setup = await send('POST', '/api/v1/account/2fa/setup', token);
  const codes = authenticator(setup.json().secret as string, clock);
  const confirm = await send('POST', '/api/v1/account/2fa/confirm', token, { code: codes.next() });
  expect(confirm.statusCode, confirm.body).toBe(200);
  return { email, id, token: confirm.json().token as string, codes };
};
const secondStep = (kind: 'login' | 'session') => async () => {
  const { email, id, codes } = await enrolled();
  const first = await send('POST', `/api/v1/auth/${kind}`, undefined, { email, password });
  expect(first.statusCode, first.body).toBe(202);
  return {
    url: `/api/v1/auth/${kind}/2fa`,
    payload: { challengeToken: first.json().challengeToken, code: codes.next() },
    token: '',
    actorId: id,
    objectId: id,
  };
};

// Team roles: a staff user to act on, an invitation (its token straight from the domain, not from a mail).
const newStaff = async () => (await signIn()).id;
const newInvitation = () =>
  inviteStaff(db, {
    email: `${unique('invitee')}@example.com`,
    role: 'editor',
    grants: [],
    invitedBy: adminId,
  });

/** What one operation is called with, who calls it, and the object its row must name. */
interface Case {
  /** Creates what the call acts on. */
  prepare: () => Promise<{
    url: string;
    payload?: object;
    token?: string;
    headers?: Record<string, string>;
    /** null: an anonymous actor (no user id). */
    actorId?: string | null;
    actorType?: 'user' | 'publisher' | 'anonymous';
    objectId?: string | null;
    /** Values the row must never contain (a one-time token in the URL). */
    secrets?: string[];
    /** Actor and object known only after the call (a user created by it). */
    resolve?: () => Promise<{ actorId: string; objectId: string }>;
  }>;
  objectType: string;
  /** The row's action when it is not the operationId (both sign-ins write `logIn`). */
  action?: string;
  /** Rows it writes: 1 (the default), 0 for the operations declared `config.audit = false`. */
  rows?: 0 | 1;
}

const byId = (path: string, make: () => Promise<string>, payload?: object) => async () => {
  const id = await make();
  return { url: `/api/v1${path.replace('{id}', id)}`, payload, objectId: id };
};

const cases: Record<string, Case> = {
  completeLogInWithSecondFactor: {
    objectType: 'user',
    action: 'logInSecondFactor',
    prepare: secondStep('login'),
  },
  completeSessionWithSecondFactor: {
    objectType: 'user',
    action: 'logInSecondFactor',
    prepare: secondStep('session'),
  },
  updateOwnProfile: {
    objectType: 'user',
    prepare: async () => {
      const { id, token } = await signIn();
      return {
        url: '/api/v1/account/profile',
        payload: { displayName: 'Desk' },
        token,
        actorId: id,
        objectId: id,
      };
    },
  },
  startTwoFactorEnrolment: {
    objectType: 'user',
    prepare: async () => {
      const { id, token } = await signIn();
      return { url: '/api/v1/account/2fa/setup', token, actorId: id, objectId: id };
    },
  },
  confirmTwoFactorEnrolment: {
    objectType: 'user',
    prepare: async () => {
      const { id, token } = await signIn();
      const setup = await send('POST', '/api/v1/account/2fa/setup', token);
      const codes = authenticator(setup.json().secret as string, clock);
      return {
        url: '/api/v1/account/2fa/confirm',
        payload: { code: codes.next() },
        token,
        actorId: id,
        objectId: id,
      };
    },
  },
  disableTwoFactor: {
    objectType: 'user',
    prepare: async () => {
      const { id, token, codes } = await enrolled();
      return {
        url: '/api/v1/account/2fa/disable',
        payload: { password, code: codes.next() },
        token,
        actorId: id,
        objectId: id,
      };
    },
  },
  regenerateRecoveryCodes: {
    objectType: 'user',
    prepare: async () => {
      const { id, token, codes } = await enrolled();
      return {
        url: '/api/v1/account/2fa/recovery-codes',
        payload: { code: codes.next() },
        token,
        actorId: id,
        objectId: id,
      };
    },
  },
  updateSecuritySettings: {
    objectType: 'security_setting',
    prepare: async () => ({
      url: '/api/v1/security-settings',
      payload: { requireAdminTwoFactor: false },
      objectId: null,
    }),
  },
  logIn: {
    objectType: 'user',
    prepare: async () => {
      const { email, id } = await signIn();
      return {
        url: '/api/v1/auth/login',
        payload: { email, password },
        token: '',
        actorId: id,
        objectId: id,
      };
    },
  },
  createSession: {
    objectType: 'user',
    action: 'logIn',
    prepare: async () => {
      const { email, id } = await signIn();
      return {
        url: '/api/v1/auth/session',
        payload: { email, password },
        token: '',
        actorId: id,
        objectId: id,
      };
    },
  },
  deleteSession: {
    objectType: 'user',
    prepare: async () => {
      const { email, id } = await signIn();
      const session = await send('POST', '/api/v1/auth/session', undefined, { email, password });
      const cookie = session.cookies.find((c) => c.name === 'newsroom_session');
      return {
        url: '/api/v1/auth/session',
        token: '',
        headers: { cookie: `${cookie?.name}=${cookie?.value}`, 'x-csrf-token': session.json().csrfToken },
        actorId: id,
        objectId: id,
      };
    },
  },
  changePassword: {
    objectType: 'user',
    prepare: async () => {
      const { id, token } = await signIn();
      return {
        url: '/api/v1/auth/password',
        payload: { currentPassword: password, newPassword: 'another long pass phrase 2' },
        token,
        actorId: id,
        objectId: id,
      };
    },
  },
  createArticle: {
    objectType: 'article',
    prepare: async () => ({ url: '/api/v1/article', payload: { title: unique('Created') } }),
  },
  updateArticle: { objectType: 'article', prepare: byId('/article/{id}', newDraft, { title: 'Edited' }) },
  deleteArticle: { objectType: 'article', prepare: byId('/article/{id}', newDraft) },
  hostArticleOnSite: {
    objectType: 'article',
    prepare: byId('/article/host-site/{id}', newDraft, { hostSites: [] }),
  },
  publishArticle: { objectType: 'article', prepare: byId('/article/publish/{id}', newDraft) },
  unpublishArticle: { objectType: 'article', prepare: byId('/article/unpublish/{id}', newPublished) },
  approveArticle: { objectType: 'article', prepare: byId('/article/approve/{id}', newPending) },
  rejectArticle: { objectType: 'article', prepare: byId('/article/reject/{id}', newPending) },
  moveArticleBackToPending: {
    objectType: 'article',
    prepare: byId('/article/back-to-pending/{id}', async () => {
      const id = await newPending();
      await send('PUT', `/api/v1/article/reject/${id}`, adminToken);
      return id;
    }),
  },
  bulkUpdateArticles: {
    objectType: 'article',
    prepare: async () => ({
      url: '/api/v1/article/bulk',
      payload: { action: 'publish', ids: [await newDraft(), await newDraft()] },
      objectId: null,
    }),
  },
  // Joined after merging time-preview, history-revisions and time-schedule: covered by the generic hook.
  createArticlePreviewLink: {
    objectType: 'article',
    prepare: byId('/article/{id}/preview-links', newDraft, {}),
  },
  revokeArticlePreviewLink: {
    objectType: 'article',
    prepare: async () => {
      const id = await newDraft();
      const link = await created('POST', `/api/v1/article/${id}/preview-links`, {});
      return { url: `/api/v1/article/${id}/preview-links/${link}`, objectId: id };
    },
  },
  restoreArticleRevision: {
    objectType: 'article',
    prepare: byId('/article/{id}/revisions/1/restore', async () => {
      const id = await newDraft();
      await send('PUT', `/api/v1/article/${id}`, adminToken, { title: 'Changed' });
      return id;
    }),
  },
  setArticleEmbargo: {
    objectType: 'article',
    prepare: byId('/article/{id}/embargo', newPublished, {
      embargoUntil: new Date(Date.now() + 86_400_000).toISOString(),
    }),
  },
  scheduleArticleAction: {
    objectType: 'scheduled_action',
    prepare: async () => ({
      url: '/api/v1/scheduled-actions',
      payload: { articleId: await newDraft(), kind: 'publish', dueAt: inHours(24) },
    }),
  },
  rescheduleScheduledAction: {
    objectType: 'scheduled_action',
    prepare: byId('/scheduled-actions/{id}', newScheduledAction, { dueAt: inHours(48) }),
  },
  cancelScheduledAction: {
    objectType: 'scheduled_action',
    prepare: byId('/scheduled-actions/{id}/cancel', newScheduledAction),
  },
  createRelease: {
    objectType: 'release',
    prepare: async () => ({
      url: '/api/v1/releases',
      payload: {
        name: unique('Release'),
        dueAt: inHours(24),
        actions: [{ articleId: await newDraft(), kind: 'publish' }],
      },
    }),
  },
  rescheduleRelease: {
    objectType: 'release',
    prepare: byId('/releases/{id}', newRelease, { dueAt: inHours(48) }),
  },
  cancelRelease: { objectType: 'release', prepare: byId('/releases/{id}/cancel', newRelease) },
  createSite: {
    objectType: 'site',
    prepare: async () => ({ url: '/api/v1/site', payload: { slug: unique('created'), name: 'Created' } }),
  },
  updateSite: { objectType: 'site', prepare: byId('/site/{id}', newSite, { name: 'Renamed' }) },
  deleteSite: { objectType: 'site', prepare: byId('/site/{id}', newSite) },
  createSiteKey: {
    objectType: 'site_key',
    prepare: async () => ({ url: `/api/v1/site/${await newSite()}/keys`, payload: { name: 'Front end' } }),
  },
  revokeSiteKey: {
    objectType: 'site_key',
    prepare: async () => {
      const site = await newSite();
      const key = await created('POST', `/api/v1/site/${site}/keys`, { name: 'Old' });
      return { url: `/api/v1/site/${site}/keys/${key}`, objectId: key };
    },
  },
  signStorageUpload: {
    objectType: 'upload',
    rows: 0,
    prepare: async () => ({
      url: '/api/v1/sign-storage',
      payload: { fileName: 'a.png', fileType: 'image/png' },
    }),
  },
  createWebhook: {
    objectType: 'webhook',
    prepare: async () => ({
      url: '/api/v1/webhooks',
      payload: { url: 'https://hooks.example.com/new', events: ['article.published'] },
    }),
  },
  updateWebhook: { objectType: 'webhook', prepare: byId('/webhooks/{id}', newWebhook, { enabled: false }) },
  deleteWebhook: { objectType: 'webhook', prepare: byId('/webhooks/{id}', newWebhook) },
  rotateWebhookSecret: { objectType: 'webhook', prepare: byId('/webhooks/{id}/rotate-secret', newWebhook) },
  resendWebhookDelivery: {
    objectType: 'webhook_delivery',
    prepare: async () => {
      const hook = await newWebhook();
      await newPublished();
      // The relay may need more than one pass to see the change (webhooks.test.ts waits the same way, bounded).
      let delivery: { id: string | number } | undefined;
      for (let pass = 0; pass < 100 && !delivery; pass++) {
        await relayArticleChanges(db);
        delivery = await db
          .selectFrom('webhook_deliveries')
          .select('id')
          .where('endpoint_id', '=', hook)
          .executeTakeFirst();
        if (!delivery) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      if (!delivery) throw new Error('no delivery after 100 relay passes');
      return {
        url: `/api/v1/webhooks/${hook}/deliveries/${delivery.id}/resend`,
        objectId: String(delivery.id),
      };
    },
  },
  createPublisher: {
    objectType: 'publisher',
    prepare: async () => ({
      url: '/api/v1/publisher',
      payload: { name: unique('New desk'), email: `${unique('new')}@example.com`, password },
    }),
  },
  updatePublisher: {
    objectType: 'publisher',
    prepare: byId('/publisher/{id}', newPublisher, { autoApprove: true }),
  },
  deletePublisher: { objectType: 'publisher', prepare: byId('/publisher/{id}', newPublisher) },
  approvePublisher: { objectType: 'publisher', prepare: byId('/publisher/{id}/approve', newPublisher) },
  disablePublisher: { objectType: 'publisher', prepare: byId('/publisher/{id}/disable', newPublisher) },
  enablePublisher: {
    objectType: 'publisher',
    prepare: byId('/publisher/{id}/enable', async () => {
      const id = await newPublisher();
      await send('PUT', `/api/v1/publisher/${id}/disable`, adminToken);
      return id;
    }),
  },
  resumePublisherFeed: {
    objectType: 'publisher',
    prepare: byId('/publisher/{id}/feed/resume', newPublisher),
  },
  setPublisherPassword: {
    objectType: 'publisher',
    prepare: byId('/publisher/{id}/password', newPublisher, { password: 'a brand new pass phrase' }),
  },
  startPublisherImport: {
    objectType: 'publisher',
    prepare: byId('/publisher/{id}/import', async () => {
      const id = await newPublisher();
      await send('PUT', `/api/v1/publisher/${id}/approve`, adminToken);
      await db
        .updateTable('publishers')
        .set({ feed_url: 'https://feeds.example.com/rss' })
        .where('id', '=', id)
        .execute();
      return id;
    }),
  },
  testPublisherFeed: {
    objectType: 'publisher',
    rows: 0,
    prepare: byId('/publisher/{id}/test-feed', newPublisher, { feedUrl: 'http://127.0.0.1:9/feed' }),
  },
  updateOwnPublisherFeed: {
    objectType: 'publisher',
    prepare: async () => ({
      url: '/api/v1/publisher/me/feed',
      payload: { feedUrl: 'https://feeds.example.com/own.rss', defaultTags: ['own'] },
      token: publisherToken,
      actorId: publisherUserId,
      objectId: publisherId,
    }),
  },
  resumeOwnPublisherFeed: {
    objectType: 'publisher',
    prepare: async () => ({
      url: '/api/v1/publisher/me/feed/resume',
      token: publisherToken,
      actorId: publisherUserId,
      objectId: publisherId,
    }),
  },
  // Joined after merging team-roles: the staff users, invitations and password resets, submit for review.
  submitArticle: { objectType: 'article', prepare: byId('/article/submit/{id}', newDraft) },
  sendBackArticle: {
    objectType: 'article',
    prepare: byId(
      '/article/send-back/{id}',
      async () => {
        const id = await newDraft();
        const submitted = await send('PUT', `/api/v1/article/submit/${id}`, adminToken);
        expect(submitted.statusCode, submitted.body).toBe(200);
        return id;
      },
      { reason: 'Needs a second source' },
    ),
  },
  inviteUser: {
    objectType: 'invitation',
    prepare: async () => ({
      url: '/api/v1/users/invitations',
      payload: { email: `${unique('invited')}@example.com`, role: 'editor', grants: [] },
    }),
  },
  revokeInvitation: {
    objectType: 'invitation',
    prepare: byId('/users/invitations/{id}', async () => {
      const { invitation } = await newInvitation();
      return invitation.id;
    }),
  },
  acceptInvitation: {
    objectType: 'user',
    prepare: async () => {
      const { invitation, token } = await newInvitation();
      const user = async () => {
        const { id } = await db
          .selectFrom('users')
          .select('id')
          .where('email', '=', invitation.email)
          .executeTakeFirstOrThrow();
        return { actorId: id, objectId: id };
      };
      return {
        url: `/api/v1/auth/invitation/${token}`,
        payload: { password: 'a brand new pass phrase' },
        token: '',
        secrets: [token],
        resolve: user,
      };
    },
  },
  requestPasswordReset: {
    objectType: 'user',
    prepare: async () => {
      const { email } = await signIn();
      return {
        url: '/api/v1/auth/password-reset',
        payload: { email },
        token: '',
        actorId: null,
        actorType: 'anonymous',
        objectId: null,
      };
    },
  },
  resetPassword: {
    objectType: 'user',
    prepare: async () => {
      const { email, id } = await signIn();
      const reset = await startPasswordReset(db, email);
      if (!reset) throw new Error('no reset started');
      return {
        url: `/api/v1/auth/password-reset/${reset.token}`,
        payload: { password: 'another long pass phrase 3' },
        token: '',
        secrets: [reset.token],
        actorId: id,
        objectId: id,
      };
    },
  },
  updateUser: {
    objectType: 'user',
    prepare: byId('/users/{id}', newStaff, { role: 'editor', grants: [] }),
  },
  suspendUser: { objectType: 'user', prepare: byId('/users/{id}/suspend', newStaff) },
  reinstateUser: {
    objectType: 'user',
    prepare: byId('/users/{id}/reinstate', async () => {
      const id = await newStaff();
      const suspended = await send('PUT', `/api/v1/users/${id}/suspend`, adminToken);
      expect(suspended.statusCode, suspended.body).toBe(200);
      return id;
    }),
  },
  deleteUser: { objectType: 'user', prepare: byId('/users/{id}', newStaff) },
  testOwnPublisherFeed: {
    objectType: 'publisher',
    rows: 0,
    prepare: async () => ({
      url: '/api/v1/publisher/me/test-feed',
      payload: { feedUrl: 'http://127.0.0.1:9/feed' },
      token: publisherToken,
    }),
  },
};

const document = (await app.inject('/docs/json')).json() as {
  paths: Record<string, Record<string, { operationId: string }>>;
};
const operations = Object.entries(document.paths)
  .filter(([path]) => path.startsWith('/api/v1/') && !path.startsWith('/api/v1/client'))
  .flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      method: method.toUpperCase() as Method,
      path,
      operationId: op.operationId,
    })),
  );
const writes = operations.filter((op) => op.method !== 'GET');
const reads = operations.filter((op) => op.method === 'GET');

const headSeq = async () =>
  Number((await db.selectFrom('audit_chain').select('head_seq').executeTakeFirstOrThrow()).head_seq);
const rowsAfter = (seq: number) =>
  db.selectFrom('audit_log').selectAll().where('seq', '>', String(seq)).orderBy('seq').execute();

describe('every state-changing operation of the OpenAPI document', () => {
  it('has a case here (a new operation needs one)', () => {
    expect(writes.length).toBeGreaterThan(30);
    expect(writes.map((op) => op.operationId).filter((id) => !cases[id])).toEqual([]);
  });

  it.each(writes)(
    '$method $path ($operationId) writes exactly its audit row',
    async ({ method, operationId }) => {
      const test = cases[operationId];
      if (!test) throw new Error(`no case for ${operationId}`);
      const call = await test.prepare();
      const before = await headSeq();
      const response = await send(
        method,
        call.url,
        call.token === undefined ? adminToken : call.token || undefined,
        call.payload,
        call.headers,
      );
      const rows = await rowsAfter(before);
      if (test.rows === 0) {
        expect(rows).toEqual([]);
        return;
      }
      expect(response.statusCode, response.body).toBeLessThan(300);
      expect(rows).toHaveLength(1);
      const row = rows[0] as (typeof rows)[number];
      const createdId = response.body ? (response.json() as { id?: string }).id : undefined;
      const resolved = call.resolve ? await call.resolve() : undefined;
      const actorId = resolved?.actorId ?? call.actorId;
      const objectId = resolved?.objectId ?? call.objectId;
      expect(row).toMatchObject({
        action: test.action ?? operationId,
        actor_id: actorId === undefined ? adminId : actorId,
        actor_type: call.actorType ?? (call.token === publisherToken ? 'publisher' : 'user'),
        object_type: test.objectType,
        object_id: objectId === undefined ? (createdId ?? null) : objectId,
        address: '127.0.0.1',
      });
      // Never a secret: passwords, key and webhook secrets, tokens (one-time tokens of a URL too).
      const answer = response.body ? (response.json() as Record<string, unknown>) : {};
      const secrets = ['key', 'secret', 'token', 'csrfToken']
        .map((name) => answer[name])
        .filter(Boolean)
        .concat(call.secrets ?? []);
      const stored = JSON.stringify(row);
      for (const secret of secrets) expect(stored).not.toContain(secret);
      expect(stored).not.toMatch(/correct horse|pass phrase/);
    },
  );
});

describe('every read operation', () => {
  it('writes no audit row (an export writes one)', async () => {
    const ids = { id: await newSite(), keyId: '1', deliveryId: '1', jobId: '1', slug: 'x' };
    for (const { path, operationId } of reads) {
      const url = path.replace(/\{(\w+)\}/g, (_, name: keyof typeof ids) => ids[name] ?? 'x');
      const token = path.startsWith('/api/v1/publisher/me') ? publisherToken : adminToken;
      const before = await headSeq();
      const response = await send('GET', url, token);
      expect(response.statusCode, `${operationId}: ${response.body}`).toBeLessThan(500);
      const rows = await rowsAfter(before);
      if (operationId === 'exportAuditEvents')
        expect(
          rows.map((r) => r.action),
          operationId,
        ).toEqual([operationId]);
      else expect(rows, operationId).toEqual([]);
    }
  });
});

describe('security events', () => {
  it('records failed logins with the e-mail tried and never the password', async () => {
    const { email } = await signIn();
    const before = await headSeq();
    const response = await send('POST', '/api/v1/auth/login', undefined, {
      email,
      password: 'wrong but secret',
    });
    expect(response.statusCode).toBe(401);
    const rows = await rowsAfter(before);
    expect(rows).toMatchObject([{ action: 'logInFailed', actor_type: 'anonymous', actor_label: email }]);
    expect(JSON.stringify(rows)).not.toMatch(/wrong but secret/);
  });
});

describe('password reset requests', () => {
  it('write the same row whether the e-mail exists or not, never the reset token', async () => {
    const { email } = await signIn();
    const rowFor = async (tried: string) => {
      const before = await headSeq();
      const response = await send('POST', '/api/v1/auth/password-reset', undefined, { email: tried });
      expect(response.statusCode).toBe(202);
      const rows = await rowsAfter(before);
      expect(rows).toHaveLength(1);
      const { action, actor_type, actor_id, actor_label, object_type, object_id, changes } =
        rows[0] as (typeof rows)[number];
      return { action, actor_type, actor_id, actor_label, object_type, object_id, changes };
    };
    const known = await rowFor(email);
    const unknown = await rowFor(`${unique('nobody')}@example.com`);
    expect(known).toEqual({ ...unknown, actor_label: email });
    expect(known).toMatchObject({
      action: 'requestPasswordReset',
      actor_type: 'anonymous',
      actor_id: null,
      object_id: null,
    });
    // Nothing of the request is kept beyond the e-mail tried: no body, so no room for the reset token.
    expect(known.changes).toBeNull();
  });
});
