import { afterAll, describe, expect, it } from 'vitest';
import { insertArticle } from '../support/content-fixtures';
import { captureLogs } from '../support/log-capture';
import { createTestApp, testApiKey } from '../support/test-app';

// Postgres parses a search with a stack of 32 operators (tsquery.c): a run of 33 or more negations
// (`-`, or `- - -` with spaces) overflows it (SQLSTATE 54001). That is the caller's input, not our bug.

const logs = captureLogs();
const { app, db, close } = await createTestApp({ fastify: { logger: logs.logger } });
afterAll(close);
await insertArticle(db, { slug: 'council-budget', title: 'Council votes on the budget' });

const search = (q: string, path = '/posts') =>
  app.inject({
    method: 'GET',
    url: `/api/v1/client${path}?q=${encodeURIComponent(q)}`,
    headers: { 'x-api-key': testApiKey },
  });

describe('a search too deeply nested for Postgres', () => {
  it.each([
    ['33 dashes', '-'.repeat(33)],
    ['200 dashes before a word', `${'-'.repeat(200)}council`],
    ['spaced dashes', '- '.repeat(40)],
    ['dashes between words', `council ${'-'.repeat(50)} budget`],
  ])('answers 400 SEARCH_TOO_COMPLEX, logging no error (%s)', async (_name, q) => {
    logs.clear();
    const response = await search(q);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      statusCode: 400,
      code: 'SEARCH_TOO_COMPLEX',
      error: 'Bad Request',
      message: expect.stringMatching(/search/i),
    });
    expect(response.headers['cache-control']).toBe('no-store');
    // Level 50 is pino's error; a refused search is a 400 like any other (its request line is info).
    expect(logs.lines().filter((line) => Number(line.level) >= 50)).toEqual([]);
  });

  it('answers the same on the streamed listing', async () => {
    const response = await search('-'.repeat(40), '/all');
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('SEARCH_TOO_COMPLEX');
  });

  it('still searches with a run of negations that fits', async () => {
    const response = await search(`council ${'-'.repeat(31)}horoscope`);
    expect(response.statusCode).toBe(200);
    expect(response.json().data.map((article: { slug: string }) => article.slug)).toEqual(['council-budget']);
  });
});
