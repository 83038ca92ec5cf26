import { readFeedFixture, startFeedServer } from '@newsroom/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { insertPublisher } from '../support/dashboard-accounts';
import { createTestApp } from '../support/test-app';

// The production default: no private addresses.
const { app, db, close } = await createTestApp();
const server = await startFeedServer({ '/feed.rss': { body: readFeedFixture('narro.rss') } });
afterAll(async () => {
  await close();
  await server.close();
});

const { token } = await insertPublisher(app, db, { name: 'Sneaky' });

describe('test-feed with the default configuration', () => {
  it.each([
    ['loopback', () => server.url('/feed.rss')],
    ['a name resolving to loopback', () => server.url('/feed.rss').replace('127.0.0.1', 'localhost')],
    ['cloud metadata', () => 'http://169.254.169.254/latest/meta-data/'],
  ])('refuses %s with 422 REFUSED_ADDRESS and never connects', async (_name, url) => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/publisher/me/test-feed',
      headers: { authorization: `Bearer ${token}` },
      payload: { feedUrl: url() },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().code).toBe('REFUSED_ADDRESS');
    expect(response.json().message).not.toMatch(/127\.0\.0\.1|169\.254/);
    expect(server.requests).toHaveLength(0);
  });
});
