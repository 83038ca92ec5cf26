import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAdmin } from '../support/dashboard-accounts';
import { createTestApp } from '../support/test-app';

// Debian's chromium (apt-get install -y chromium). Missing is a failure, never a skip.
const chromiumPath = '/usr/bin/chromium';
const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // Loopback only: Bull Board's page links a web font from the internet; nothing may resolve or leave.
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
  '--dns-prefetch-disable',
];
const blockedRequests: string[] = [];

const { app, db, close } = await createTestApp();
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
  it('refuses a visitor without login: the board is replaced by the login form', async () => {
    const page = await (browser as BrowserContext).newPage();
    const response = await page.goto(`${origin}/admin/queues`);
    expect(response?.status()).toBe(200);
    expect(new URL(page.url()).pathname).toBe('/admin/queues/login');
    await expect(page.getByLabel('Administrator token').isVisible()).resolves.toBe(true);
    expect(await page.content()).not.toContain('feed-import');
    await page.close();
  });

  it('shows an administrator the queue and its jobs', { timeout: 60_000 }, async () => {
    const admin = await insertAdmin(app, db);
    const job = await queue?.add('fetch-feed', {
      publisherId: '0b7c4a52-6f0e-4d7e-9c39-3c1d2a1e0a01',
      trigger: 'manual',
    });

    const page = await (browser as BrowserContext).newPage();
    await page.goto(`${origin}/admin/queues/login`);
    await page.getByLabel('Administrator token').fill(admin.token);
    await page.getByRole('button', { name: 'Open the queue dashboard' }).click();
    await page.waitForURL(`${origin}/admin/queues`);
    await page.getByText('feed-import').first().waitFor({ timeout: 20_000 });

    await page.goto(`${origin}/admin/queues/queue/feed-import?status=waiting`);
    await page.getByText(`#${job?.id}`).first().waitFor({ timeout: 20_000 });
    await expect(page.getByText('fetch-feed').first().isVisible()).resolves.toBe(true);
    await page.close();
    // Only the external web font was wanted from outside, and it was not fetched.
    expect(blockedRequests.every((url) => url.startsWith('https://fonts.googleapis.com/'))).toBe(true);
  });
});
