import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startLocalS3 } from '../../../../api/test/support/local-s3';
import { launchBrowser, newProfile, type OffsiteRequest } from './browser';
import { startStack } from './stack';

type Stack = Awaited<ReturnType<typeof startStack>>;
type LocalS3 = Awaited<ReturnType<typeof startLocalS3>>;

/** What a browser test file runs against: readable once the file's tests (or its own beforeAll) run. */
export interface BrowserSuite {
  readonly stack: Stack;
  readonly browser: Browser;
  /** Requests any page made to a host other than 127.0.0.1 (refused): a test expects none. */
  readonly offsite: OffsiteRequest[];
  /** The signature-checking S3 the uploads go to (with `uploads`). */
  readonly s3: LocalS3;
  /** A new signed-out browser profile whose off-site requests are refused and recorded. */
  profile(): Promise<BrowserContext>;
}

/**
 * Starts the stack (support/stack.ts) and Chromium before the file's tests and closes them after (the browser,
 * the stack, then the S3). Call it at the top of the file, before the file's own beforeAll: Vitest runs
 * beforeAll hooks in order, so that one finds everything running. `uploads`: a local S3 the API signs for.
 */
export function browserSuite(
  options: { uploads?: boolean } & Parameters<typeof startStack>[0] = {},
): BrowserSuite {
  const { uploads, ...stackOptions } = options;
  let stack: Stack | undefined;
  let browser: Browser | undefined;
  let offsite: OffsiteRequest[] = [];
  let s3: LocalS3 | undefined;
  beforeAll(async () => {
    if (uploads) s3 = await startLocalS3('newsroom-media', { corsOrigin: 'http://127.0.0.1:*' });
    stack = await startStack({ ...stackOptions, storage: s3?.storage });
    ({ browser, offsite } = await launchBrowser());
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    await s3?.close();
  });
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} is not running: browserSuite's beforeAll has not run`);
    return value;
  };
  return {
    get stack() {
      return started(stack, 'the stack');
    },
    get browser() {
      return started(browser, 'Chromium');
    },
    get offsite() {
      return offsite;
    },
    get s3() {
      return started(s3, 'the local S3 (browserSuite({ uploads: true }))');
    },
    profile() {
      return newProfile(started(browser, 'Chromium'), offsite);
    },
  };
}
