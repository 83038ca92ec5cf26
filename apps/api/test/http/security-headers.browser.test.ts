import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchLoopbackChromium } from '../support/chromium';
import { insertAdmin } from '../support/dashboard-accounts';
import { createTestApp } from '../support/test-app';

// The Content-Security-Policy must let the pages this API serves to browsers work: Swagger UI and Bull Board
// render, and the only violations are the ones the policy exists for (Bull Board's web font from the internet).

const { app, db, close } = await createTestApp();
let origin = '';
let chromium: Awaited<ReturnType<typeof launchLoopbackChromium>> | undefined;

beforeAll(async () => {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('app is not listening on a port');
  origin = `http://127.0.0.1:${address.port}`;
  chromium = await launchLoopbackChromium();
}, 60_000);

afterAll(async () => {
  await chromium?.close();
  await app.feedImportQueue?.obliterate({ force: true });
  await close();
});

/** A page that records every CSP violation it sees, as `<directive> <blocked URL>`. */
async function watchedPage(): Promise<{ page: Page; violations: string[] }> {
  const page = await (chromium?.browser ?? expect.unreachable()).newPage();
  const violations: string[] = [];
  await page.exposeFunction('reportViolation', (entry: string) => void violations.push(entry));
  // A string, run in the page before its own scripts (this file is not compiled with the DOM library).
  await page.addInitScript(`document.addEventListener('securitypolicyviolation', (event) =>
    window.reportViolation(event.effectiveDirective + ' ' + event.blockedURI))`);
  return { page, violations };
}

describe('the Content-Security-Policy in a browser', () => {
  it('lets Swagger UI render and run at /docs, with no violation', { timeout: 60_000 }, async () => {
    const { page, violations } = await watchedPage();
    const response = await page.goto(`${origin}/docs`);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.getByText('Newsroom content API').first().waitFor({ timeout: 20_000 });
    await page.getByText('/api/v1/client/posts').first().waitFor({ timeout: 20_000 });
    expect(violations).toEqual([]);
    await page.close();
  });

  it('lets Bull Board render for an administrator, with no violation (its internet web font is left out)', {
    timeout: 60_000,
  }, async () => {
    const password = 'queue-board-password-1';
    const admin = await insertAdmin(app, db, { password });
    // The dashboard's cookie session, signed in from the browser's own request context (shared cookies).
    const context = chromium?.browser ?? expect.unreachable();
    const signedIn = await context.request.post(`${origin}/api/v1/auth/session`, {
      data: { email: admin.email, password },
    });
    expect(signedIn.status()).toBe(200);
    const { page, violations } = await watchedPage();
    await page.goto(`${origin}/admin/queues`);
    expect(new URL(page.url()).pathname).toBe('/admin/queues');
    await page.getByText('feed-import').first().waitFor({ timeout: 20_000 });
    expect(violations).toEqual([]);
    await page.close();
  });

  it('refuses an inline script injected into a page', { timeout: 30_000 }, async () => {
    const { page, violations } = await watchedPage();
    await page.goto(`${origin}/docs`);
    // A string, run in the page (this file is not compiled with the DOM library).
    const ran = await page.evaluate(`(async () => {
      const script = document.createElement('script');
      script.textContent = 'window.injected = true';
      document.body.append(script);
      await new Promise((resolve) => setTimeout(resolve, 100));
      return window.injected === true;
    })()`);
    expect(ran).toBe(false);
    expect(violations.some((entry) => entry.startsWith('script-src-elem inline'))).toBe(true);
    await page.close();
  });
});
