import { afterAll } from 'vitest';
import { describeSelectiveInvalidation } from '../support/selective-invalidation';
import { createTestApp } from '../support/test-app';

// Selective invalidation (../support/selective-invalidation.ts) on one database.

const testApp = await createTestApp();
afterAll(testApp.close);
describeSelectiveInvalidation(testApp);
