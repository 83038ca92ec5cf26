import { afterAll, describe, expect, it } from 'vitest';
import { insertSite } from './support/content-fixtures';
import { bearer, insertPublisher } from './support/dashboard-accounts';
import { grant, insertStaff } from './support/policy/staff-fixtures';
import { createTestApp } from './support/test-app';

// The byline picker's list (issue 32): staff who set a display name, for anyone who writes, and nothing else
// about them (no e-mail, role or grants).
const { app, db, close } = await createTestApp();
afterAll(close);

const site = await insertSite(db, 'metro');
const contributor = await insertStaff(app, db, 'contributor');
await grant(db, contributor.id, site, 'contributor');
const reviewer = await insertStaff(app, db, 'reviewer');
await grant(db, reviewer.id, site, 'reviewer');
const named = async (name: string | null, change: Record<string, unknown> = {}) => {
  const user = await insertStaff(app, db, 'editor');
  await db
    .updateTable('users')
    .set({ display_name: name, ...change })
    .where('id', '=', user.id)
    .execute();
  return user.id;
};
const zoe = await named('Zoë Adams');
const ann = await named('Ann Lee');
await named(null);
await named('Suspended Sam', { disabled_at: new Date() });
await named('Deleted Dan', { deleted_at: new Date() });
const publisher = await insertPublisher(app, db);
await db.updateTable('users').set({ display_name: 'A Publisher' }).where('id', '=', publisher.id).execute();

const list = (token: string) =>
  app.inject({ method: 'GET', url: '/api/v1/team/bylines', headers: bearer(token) });

describe('GET /team/bylines', () => {
  it('lists staff with a display name, by name, as id and name only', async () => {
    const response = await list(contributor.token);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      data: [
        { id: ann, name: 'Ann Lee' },
        { id: zoe, name: 'Zoë Adams' },
      ],
    });
  });

  it('is refused to reviewers and publishers (they write no bylines)', async () => {
    expect((await list(reviewer.token)).statusCode).toBe(403);
    expect((await list(publisher.token)).statusCode).toBe(403);
  });
});
