import { afterAll } from 'vitest';
import { describeChangeFeedMirror } from '../support/change-feed-mirror';
import { createTestApp } from '../support/test-app';

// The change feed's contract as a property (../support/change-feed-mirror.ts), on one database.

// /client/all is read after every run: its rate limit is off here.
const testApp = await createTestApp({ env: { RATE_LIMIT_CLIENT_ALL: 'off' } });
afterAll(testApp.close);
describeChangeFeedMirror(testApp, { numRuns: 25 });
