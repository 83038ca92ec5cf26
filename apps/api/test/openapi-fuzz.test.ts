import type { LookupFunction } from 'node:net';
import { createFeedFetcher } from '@newsroom/feeds';
import { readFeedFixture, startFeedServer } from '@newsroom/test-support';
import fc from 'fast-check';
import { afterAll, describe, it } from 'vitest';
import { createUploadSigner } from '../src/storage/upload-signer';
import { insertAdmin } from './support/dashboard-accounts';
import { createFuzzWorld } from './support/fuzz/fuzz-fixtures';
import { describeRequest, requestFor } from './support/fuzz/fuzz-request';
import { type OpenApiDocument, operationsOf } from './support/fuzz/openapi-operations';
import { answerProblems } from './support/fuzz/response-checks';
import { startLocalS3 } from './support/local-s3';
import { createTestApp, testApiKey } from './support/test-app';

/**
 * Every operation of our own OpenAPI document, called as the right role with generated path, query and
 * body: valid values mixed with NUL characters, lone surrogates, huge strings, non-finite and huge
 * numbers, wrong types, extra properties, duplicated query keys, poisoned and odd bodies, odd content
 * types, wrong credentials. No answer may be a 5xx, every error has the one error shape, and no body
 * carries a stack trace, SQL or driver text. Runs are fixed per operation and the seed is fixed, so a
 * failure replays: FUZZ_SEED and FUZZ_RUNS override both to explore further.
 */
const seed = Number(process.env.FUZZ_SEED ?? 20261123);
const runsPerOperation = Number(process.env.FUZZ_RUNS ?? 40);

const s3 = await startLocalS3();
const feeds = await startFeedServer({
  '/feed.rss': { body: readFeedFixture('instant-article.rss') },
  '/not-a-feed': { body: '<html><body>hello</body></html>', contentType: 'text/html' },
});
const testApp = await createTestApp({ storage: createUploadSigner(s3.storage) });
const { app, db } = testApp;

// Loopback only, whatever URL a request carries: no name is resolved and no other address is dialled.
// (The app's own fetcher stays unused and is closed with the app.)
const noDns: LookupFunction = (hostname, _options, callback) =>
  callback(Object.assign(new Error(`fuzz test: no DNS for ${hostname}`), { code: 'ENOTFOUND' }), '', 4);
const loopbackFetcher = createFeedFetcher({
  isAllowedAddress: (address) => ['127.0.0.1', '::1'].includes(address.replace(/^\[|\]$/g, '')),
  lookup: noDns,
  timeoutMs: 2_000,
});
app.feedFetcher = loopbackFetcher;

// The cause of a 5xx, for the failure message (the error handler answers it with a bare 500).
let lastServerError: unknown;
app.addHook('onError', async (_request, _reply, error) => {
  lastServerError = error;
});

afterAll(async () => {
  await loopbackFetcher.close();
  await testApp.close();
  await feeds.close();
  await s3.close();
});

const document = (await app.inject({ method: 'GET', url: '/docs/json' })).json() as OpenApiDocument;
const operations = operationsOf(document);
const admin = await insertAdmin(app, db);
const statuses = new Map<number, number>();
let requestsSent = 0;

afterAll(() => {
  const histogram = [...statuses.entries()]
    .sort(([a], [b]) => a - b)
    .map(([status, count]) => `${status}: ${count}`);
  console.info(
    `openapi fuzz: ${operations.length} operations, ${requestsSent} requests (seed ${seed}, ${runsPerOperation} per operation); ${histogram.join(', ')}`,
  );
});

describe('fuzzing every operation of the OpenAPI document', () => {
  it('finds the operations', ({ expect }) => {
    expect(operations.length).toBeGreaterThan(30);
  });

  for (const operation of operations) {
    it(`${operation.method} ${operation.path}: no 5xx, one error shape, no leaks`, {
      timeout: 120_000,
    }, async () => {
      const { credentials, hints } = await createFuzzWorld(app, db, admin, feeds, testApiKey, operation);
      const property = fc.asyncProperty(requestFor(operation, hints, credentials), async (request) => {
        lastServerError = undefined;
        const response = await app.inject(request);
        requestsSent += 1;
        statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
        const problems = answerProblems(response, request.method);
        if (problems.length > 0) {
          const cause = lastServerError instanceof Error ? `\n  server error: ${lastServerError.stack}` : '';
          throw new Error(
            `${problems.join('; ')}\n  ${describeRequest(request, credentials)}\n  -> ${response.statusCode} ${response.body.slice(0, 500)}${cause}`,
          );
        }
      });
      await fc.assert(property, { seed, numRuns: runsPerOperation, endOnFailure: true });
    });
  }
});
