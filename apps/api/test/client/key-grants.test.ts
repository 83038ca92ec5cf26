import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { insertArticle, insertSite, issueSiteKey } from '../support/content-fixtures';
import { insertAdmin } from '../support/dashboard-accounts';
import { createTestApp, testApiKey } from '../support/test-app';

// The key guard remembers what each presented key grants (client-scope.ts, `keyGrants`): these tests pin down
// that the memo is used, and that a revocation made through one API replica ends the key on every replica.

// /all's ETag names the content state this replica has heard of: the tests wait on it (unlimited here).
const primary = await createTestApp({ env: { RATE_LIMIT_CLIENT_ALL: 'off' } });
const replica = await createTestApp({ replicaOf: primary });
afterAll(async () => {
  await replica.close();
  await primary.close();
});
const { db } = primary;
const alpha = await insertSite(db, 'alpha');
await insertArticle(db, { slug: 'on-alpha', siteIds: [alpha] });
const { token: adminToken } = await insertAdmin(primary.app, db);

const statusOf = async (target: typeof primary, key: string) =>
  (
    await target.app.inject({
      method: 'GET',
      url: '/api/v1/client/article/on-alpha',
      headers: { 'x-api-key': key },
    })
  ).statusCode;
const soon = { timeout: 1_000, interval: 20 };

/** The ETag of /all for the network key: it moves when the replica hears of a change (a 304 opens no cursor). */
const contentTagOf = async (target: typeof primary) =>
  (
    await target.app.inject({
      method: 'GET',
      url: '/api/v1/client/all',
      headers: { 'x-api-key': testApiKey, 'if-none-match': '"none"' },
    })
  ).headers.etag;

/** Changes a key's row the way no API write does: without the NOTIFY triggers, so no memo hears of it. */
async function revokeSilently(keyId: string) {
  await db.transaction().execute(async (trx) => {
    await sql`set local session_replication_role = replica`.execute(trx);
    await trx.updateTable('site_api_keys').set({ revoked_at: new Date() }).where('id', '=', keyId).execute();
  });
}

describe('remembered key grants', () => {
  it('answers a known key from memory: a change no trigger announces is not seen until one is', async () => {
    const before = await contentTagOf(primary);
    const key = await issueSiteKey(db, alpha, 'silent');
    // The key's own insert is announced: wait until it is heard, or it would empty the memo after the read below.
    await expect.poll(() => contentTagOf(primary), soon).not.toBe(before);
    expect(await statusOf(primary, key.key)).toBe(200);
    await revokeSilently(key.id);
    expect(await statusOf(primary, key.key)).toBe(200);
    // Any write to sites or site_api_keys notifies everything: the memo is emptied.
    await db.updateTable('sites').set({ name: 'Alpha' }).where('id', '=', alpha).execute();
    await expect.poll(() => statusOf(primary, key.key), soon).toBe(401);
  });

  it('ends a key revoked through one replica on every replica within a second', async () => {
    const key = await issueSiteKey(db, alpha, 'revoked elsewhere');
    expect(await statusOf(primary, key.key)).toBe(200);
    expect(await statusOf(replica, key.key)).toBe(200);
    expect(await statusOf(replica, key.key)).toBe(200);
    const revoked = await primary.app.inject({
      method: 'DELETE',
      url: `/api/v1/site/${alpha}/keys/${key.id}`,
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(revoked.statusCode).toBe(204);
    await expect.poll(() => statusOf(replica, key.key), soon).toBe(401);
    await expect.poll(() => statusOf(primary, key.key), soon).toBe(401);
  });

  it('remembers the network key and a refused key alike, and still refuses the refused one', async () => {
    const wrong = `nsk_${'B'.repeat(43)}`;
    for (let i = 0; i < 3; i++) {
      expect(await statusOf(replica, testApiKey)).toBe(200);
      expect(await statusOf(replica, wrong)).toBe(401);
    }
  });
});
