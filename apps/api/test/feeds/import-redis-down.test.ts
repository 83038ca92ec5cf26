import { afterAll, describe, expect, it } from 'vitest';
import { bearer, insertAdmin } from '../support/dashboard-accounts';
import { createTestApp } from '../support/test-app';

// Nothing listens on port 1: the producer connection fails at once.
const { app, db, close } = await createTestApp({ redisUrl: 'redis://127.0.0.1:1' });
afterAll(close);

describe('re-trigger while Redis is down', () => {
  it('answers 503 QUEUE_UNAVAILABLE quickly instead of hanging', async () => {
    const admin = await insertAdmin(app, db);
    const { id: publisherId } = await db
      .insertInto('publishers')
      .values({ name: 'Planet', feed_url: 'https://planet.example/feed', approved: true })
      .returning('id')
      .executeTakeFirstOrThrow();
    const started = Date.now();
    const response = await app.inject({
      method: 'POST',
      url: `/api/v1/publisher/${publisherId}/import`,
      headers: bearer(admin.token),
    });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ code: 'QUEUE_UNAVAILABLE' });
    expect(response.headers['retry-after']).toBe('10');
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
