import { afterAll, describe, expect, it } from 'vitest';
import { bearer, insertAdmin, insertPublisher } from '../support/dashboard-accounts';
import { createTestApp } from '../support/test-app';

// Nothing listens on port 1: the producer connection fails at once.
const { app, db, close } = await createTestApp({ redisUrl: 'redis://127.0.0.1:1' });
afterAll(close);

describe('first import while Redis is down', () => {
  it('approval and a new feed URL still answer 200 (the hourly import picks the publisher up)', async () => {
    const admin = await insertAdmin(app, db);
    const account = await insertPublisher(app, db);
    await db
      .updateTable('publishers')
      .set({ feed_url: 'https://planet.example/feed' })
      .where('id', '=', account.publisherId)
      .execute();
    const approved = await app.inject({
      method: 'PUT',
      url: `/api/v1/publisher/${account.publisherId}/approve`,
      headers: bearer(admin.token),
    });
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({ approved: true, state: 'approved' });

    const saved = await app.inject({
      method: 'PUT',
      url: '/api/v1/publisher/me/feed',
      headers: bearer(account.token),
      payload: { feedUrl: 'https://planet.example/new-feed' },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ feedUrl: 'https://planet.example/new-feed' });
  });
});
