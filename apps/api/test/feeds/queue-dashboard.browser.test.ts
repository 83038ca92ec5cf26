import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'bullmq';
import { type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumArgs, chromiumPath } from '../support/chromium';
import { insertAdmin } from '../support/dashboard-accounts';
import { createTestApp } from '../support/test-app';

const blockedRequests: string[] = [];

const { app, db, config, close } = await createTestApp();
const queue = app.feedImportQueue;
let origin = '';
let browser: BrowserContext | undefined;
const userDataDir = mkdtempSync(join(tmpdir(), 'newsroom-chromium-'));

beforeAll(async () => {
  if (!existsSync(chromiumPath)) {
    throw new Error(
      `Chromium not found at ${chromiumPath}: the queue dashboard browser test needs Debian's chromium (apt-get install -y chromium)`,
    );
  }
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('app is not listening on a port');
  origin = `http://127.0.0.1:${address.port}`;
  browser = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumPath,
    args: chromiumArgs,
    headless: true,
  });
  await browser.route('**/*', (route) => {
    const { hostname } = new URL(route.request().url());
    if (hostname === '127.0.0.1') return route.continue();
    blockedRequests.push(route.request().url());
    return route.abort();
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  rmSync(userDataDir, { recursive: true, force: true });
  await queue?.obliterate({ force: true });
  await close();
});

describe('queue dashboard in a browser', () => {
  it('sends a visitor without a session to the dashboard sign-in page', async () => {
    const page = await (browser as BrowserContext).newPage();
    await page.goto(`${origin}/admin/queues`);
    const landed = new URL(page.url());
    expect(landed.pathname).toBe('/login');
    expect(landed.searchParams.get('next')).toBe('/admin/queues');
    expect(await page.content()).not.toContain('feed-import');
    await page.close();
  });

  it('shows an administrator signed in to the dashboard the queue and its jobs, with no token to paste', {
    timeout: 60_000,
  }, async () => {
    const password = 'correct horse battery';
    const admin = await insertAdmin(app, db, { password });
    const job = await queue?.add('fetch-feed', {
      publisherId: '0b7c4a52-6f0e-4d7e-9c39-3c1d2a1e0a01',
      publisherName: 'Daily Planet',
      trigger: 'manual',
    });

    // The dashboard's sign-in, from the browser (its request context shares the pages' cookies).
    const context = browser as BrowserContext;
    const signedIn = await context.request.post(`${origin}/api/v1/auth/session`, {
      data: { email: admin.email, password },
    });
    expect(signedIn.status()).toBe(200);
    const page = await context.newPage();
    await page.goto(`${origin}/admin/queues`);
    expect(new URL(page.url()).pathname).toBe('/admin/queues');
    await page.getByText('feed-import').first().waitFor({ timeout: 20_000 });

    await page.goto(`${origin}/admin/queues/queue/feed-import?status=waiting`);
    await page.getByText(`#${job?.id}`).first().waitFor({ timeout: 20_000 });
    await expect(page.getByText('fetch-feed · Daily Planet').first().isVisible()).resolves.toBe(true);
    await queue?.drain();

    // Retry (all failed) from the board's own page passes the same-origin check (the browser's Sec-Fetch-Site).
    const failed = await queue?.add('fetch-feed', { publisherId: 'x', trigger: 'manual' }, { attempts: 1 });
    const failing = new Worker(
      queue?.name ?? '',
      async () => {
        throw new Error('boom');
      },
      { connection: { url: config.redis.url }, prefix: config.redis.queuePrefix },
    );
    while ((await failed?.getState()) !== 'failed') await new Promise((r) => setTimeout(r, 20));
    await failing.close();
    await page.goto(`${origin}/admin/queues/queue/feed-import?status=failed`);
    await page.getByText(`#${failed?.id}`).first().waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Retry all' }).click();
    const retried = page.waitForResponse((r) => r.request().method() === 'PUT');
    await page.getByRole('button', { name: 'Confirm' }).click();
    expect((await retried).status()).toBe(200);
    for (let i = 0; i < 200 && (await failed?.getState()) === 'failed'; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await failed?.getState()).toBe('waiting');
    await page.close();
    // Only the external web font was wanted from outside, and it was not fetched.
    expect(blockedRequests.every((url) => url.startsWith('https://fonts.googleapis.com/'))).toBe(true);
  });
});
