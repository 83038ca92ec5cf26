// @vitest-environment node
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshots, seriousAccessibilityViolations } from './support/browser';
import { submitSignIn } from './support/sign-in';
import { newsFeed, thumbnailSvg } from './support/stack';
import { browserSuite } from './support/suite';

// The flows in Chromium against the real API, worker, Postgres, Redis and a loopback feed server.
// The tests run in order and build on each other (one newsroom, two people).

const suite = browserSuite();
let adminContext: BrowserContext;
let publisherContext: BrowserContext;
let admin: Page;
let publisher: Page;
let publisherId = '';
const publisherLogin = { email: 'desk@harbour-gazette.example', password: 'harbour gazette password 1' };

beforeAll(async () => {
  suite.stack.feeds.route('/feed.rss', { body: newsFeed(suite.stack.feeds, 6) });
  suite.stack.feeds.route('/thumb.svg', { body: thumbnailSvg, contentType: 'image/svg+xml' });
  suite.stack.feeds.route('/not-a-feed', {
    body: '<!doctype html><title>Home</title><p>Hello</p>',
    contentType: 'text/html',
  });
  adminContext = await suite.profile();
  publisherContext = await suite.profile();
  admin = await adminContext.newPage();
  publisher = await publisherContext.newPage();
}, 180_000);

async function expectAccessible(page: Page) {
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
}

describe('the dashboard in Chromium', { timeout: 60_000 }, () => {
  it('sends a signed-out visitor to /login, then an administrator to /publishers', async () => {
    await admin.goto(`${suite.stack.origin}/publishers`);
    await admin.waitForURL(`${suite.stack.origin}/login?next=%2Fpublishers`);
    await admin.getByRole('button', { name: 'Sign in' }).waitFor();
    await expectAccessible(admin);
    await screenshots(admin, 'login');

    await submitSignIn(admin, suite.stack.admin);
    await admin.waitForURL(`${suite.stack.origin}/publishers`);
    await admin.getByText('No publishers yet').waitFor();
  });

  it('creates a publisher (field errors first) and approves it', async () => {
    await admin
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'New publisher' })
      .click();
    await admin.getByRole('heading', { name: 'New publisher' }).waitFor();
    await admin.getByLabel('Name').fill('Harbour Gazette');
    await admin.getByLabel('E-mail').fill('not an address');
    await admin.getByLabel('Password', { exact: true }).fill('short');
    await admin.getByRole('button', { name: 'Create publisher' }).click();
    await admin.getByText('Must be at least 12 characters').waitFor();
    await expectAccessible(admin);
    await screenshots(admin, 'publisher-create');

    await admin.getByLabel('E-mail').fill(publisherLogin.email);
    await admin.getByLabel('Password', { exact: true }).fill(publisherLogin.password);
    await admin.getByRole('button', { name: 'Create publisher' }).click();
    await admin.waitForURL(/\/publishers\/[0-9a-f-]{36}$/);
    publisherId = admin.url().split('/').pop() as string;
    await admin.getByRole('button', { name: 'Approve Harbour Gazette' }).click();
    await admin.getByText('Approved', { exact: true }).waitFor();
  });

  it('lets the publisher test its feed (errors in words, then a preview) and save it', async () => {
    await publisher.goto(`${suite.stack.origin}/login`);
    await submitSignIn(publisher, publisherLogin);
    await publisher.waitForURL(`${suite.stack.origin}/publisher/dashboard`);
    await publisher.getByRole('link', { name: 'Feed', exact: true }).click();

    await publisher.getByLabel('Feed address').fill(suite.stack.feeds.url('/not-a-feed'));
    await publisher.getByRole('button', { name: 'Test feed' }).click();
    await publisher.getByText('The address does not return an RSS, Atom or JSON feed.').waitFor();

    await publisher.getByLabel('Feed address').fill(suite.stack.feeds.url('/feed.rss'));
    await publisher.getByLabel('Default tags').fill('local, harbour');
    await publisher.getByRole('button', { name: 'Test feed' }).click();
    await publisher.getByRole('heading', { name: 'Preview of “Harbour Gazette”' }).waitFor();
    expect(await publisher.getByRole('heading', { name: /^Harbour council story/ }).count()).toBe(5);
    await publisher
      .locator('.feed-preview-thumb')
      .first()
      .evaluate((img) => (img as HTMLImageElement).decode());
    await expectAccessible(publisher);
    await screenshots(publisher, 'publisher-feed');

    await publisher.getByRole('button', { name: 'Save' }).click();
    await publisher.locator('.toast').getByText('Feed settings saved').waitFor();
  });

  it('refuses the publisher the administrator views, without loading their data', async () => {
    const adminReads: string[] = [];
    const listen = (request: { url(): string }) => {
      if (/\/api\/v1\/publisher(\?|\/[0-9a-f-]{36}|\/reports)/.test(request.url()))
        adminReads.push(request.url());
    };
    publisher.on('request', listen);
    for (const path of ['/publishers', '/publishers/reports', `/publishers/${publisherId}`]) {
      await publisher.goto(`${suite.stack.origin}${path}`);
      await publisher.getByRole('heading', { name: 'Not allowed' }).waitFor();
    }
    publisher.off('request', listen);
    expect(adminReads).toEqual([]);
    await screenshots(publisher, 'not-allowed');
  });

  it('imports the feed with "Import now" and shows the outcome and the articles', async () => {
    await admin.goto(`${suite.stack.origin}/publishers/${publisherId}`);
    await admin.getByRole('button', { name: 'Import now' }).click();
    // Saving the feed already queued its first import (issue 17), so this fetch finds nothing new, either as a
    // 304 or as 6 items already imported, depending on whether that first import has run yet.
    await admin
      .getByText(/Done: (the feed has not changed|6 items fetched, (6|0) new articles inserted)/)
      .waitFor({ timeout: 30_000 });
    await admin.getByRole('cell', { name: 'Harbour council story 1', exact: true }).waitFor();
    await expectAccessible(admin);
    await screenshots(admin, 'publisher-detail');
  });

  it('shows the publisher its articles by status and its feed health', async () => {
    await publisher.goto(`${suite.stack.origin}/publisher/dashboard`);
    await publisher.getByRole('cell', { name: 'Harbour council story 6', exact: true }).waitFor();
    await publisher.getByRole('button', { name: /6\s*Awaiting review/ }).waitFor();
    await publisher.getByText(/The feed is healthy/).waitFor();
    await expectAccessible(publisher);
    await screenshots(publisher, 'publisher-dashboard');
  });

  it('sets import rules on the publisher and previews what they decide per item', async () => {
    await admin.goto(`${suite.stack.origin}/publishers/${publisherId}`);
    const form = admin.getByRole('form', { name: 'Import rules' });
    await form.getByLabel('Skip items with').fill('story 2, story 4');
    await form.getByRole('button', { name: 'Add a mapping' }).click();
    await form.getByLabel('Feed category 1', { exact: true }).fill('Harbour');
    await form.getByLabel('Our tag for feed category 1').fill('Port');
    await form.getByRole('button', { name: 'Add a mapping' }).click();
    await form.getByLabel('Feed category 2', { exact: true }).fill('Sponsored');
    await form.getByLabel('Drop').nth(1).check();
    await form.getByLabel('New items per fetch').fill('2');
    await form.getByLabel('Default category').fill('Local news');
    await form.getByLabel('Default section').fill('Harbour');
    await form.getByRole('button', { name: 'Save rules' }).click();
    await admin.locator('.toast').getByText('Import rules saved').waitFor();
    // The feed moves on: six stories the import has not seen yet.
    suite.stack.feeds.route('/feed.rss', {
      body: newsFeed(suite.stack.feeds, 6).replace(/browser-story-/g, 'browser-later-'),
    });
    await admin.getByRole('button', { name: 'Preview with the saved rules' }).click();
    await admin.getByRole('heading', { name: 'Preview of “Harbour Gazette”' }).waitFor({ timeout: 30_000 });
    await admin.getByText('Excluded keyword “story 2”.').waitFor();
    // Stories 1, 3 and 5 pass the keywords; the two oldest are saved now, story 5 by a later fetch.
    expect(await admin.getByText('Would be imported').count()).toBe(2);
    await admin.getByText('Over the new items per fetch; a later fetch saves it.').waitFor();
    suite.stack.feeds.route('/feed.rss', { body: newsFeed(suite.stack.feeds, 6) });
    await admin.locator('.toast').waitFor({ state: 'detached' });
    await expectAccessible(admin);
    await screenshots(admin, 'publisher-rules');
  });

  it('shows a paused feed and why, to the publisher, who resumes it in one click', async () => {
    await suite.stack.db
      .updateTable('publishers')
      .set({
        feed_paused_at: new Date(),
        feed_pause_reason:
          "10 failed fetches in a row; the last one: The feed's server answered with an error instead of the feed (HTTP 503 Service Unavailable).",
        consecutive_failures: 10,
        last_error: 'HTTP_STATUS: HTTP 503 Service Unavailable',
        last_failed_at: new Date(),
      })
      .where('id', '=', publisherId)
      .execute();
    await publisher.goto(`${suite.stack.origin}/publisher/dashboard`);
    await publisher.getByText(/The feed is paused since/).waitFor();
    await expectAccessible(publisher);
    await screenshots(publisher, 'publisher-paused');
    await publisher.getByRole('button', { name: 'Resume my feed' }).click();
    await publisher.getByRole('button', { name: 'Resume my feed' }).waitFor({ state: 'detached' });
    await publisher.getByText(/The feed is paused since/).waitFor({ state: 'detached' });
  });

  it('lists, filters and searches publishers', async () => {
    await admin.goto(`${suite.stack.origin}/publishers`);
    await admin.getByRole('link', { name: 'Harbour Gazette' }).waitFor();
    await admin.getByLabel('Search').fill('nobody-by-that-name');
    await admin.getByRole('button', { name: 'Search' }).click();
    await admin.getByText('No publisher matches these filters.').waitFor();
    await admin.getByLabel('Search').fill('harbour');
    await admin.getByRole('button', { name: 'Search' }).click();
    await admin.getByLabel('State').selectOption('approved');
    await admin.getByRole('link', { name: 'Harbour Gazette' }).waitFor();
    expect(admin.url()).toContain('state=approved');
    await expectAccessible(admin);
    await screenshots(admin, 'publishers');
  });

  it('reports the monthly counts as a table and a chart', async () => {
    await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports' }).click();
    const table = admin.getByRole('table', { name: /Articles per publisher per month/ });
    const row = table.getByRole('row', { name: /Harbour Gazette/ });
    await row.waitFor();
    expect(await row.getByRole('cell').last().textContent()).toBe('6');
    await admin.locator('.recharts-surface').first().waitFor();
    await expectAccessible(admin);
    await screenshots(admin, 'reports');
  });

  it('has an account page to change the password', async () => {
    await admin.getByRole('link', { name: 'Account' }).click();
    await admin.getByRole('heading', { name: 'Change password' }).waitFor();
    await expectAccessible(admin);
    await screenshots(admin, 'account');
  });

  it('sent no request to another host from any dashboard view', () => {
    expect(suite.offsite).toEqual([]);
  });

  it('opens the queue dashboard from the navigation without a token', async () => {
    await admin.getByRole('link', { name: 'Queues' }).click();
    await admin.waitForURL(`${suite.stack.origin}/admin/queues`);
    await admin.getByText('feed-import').first().waitFor({ timeout: 20_000 });
    expect(await admin.getByLabel('Administrator token').count()).toBe(0);
  });

  it('signs out: the next visit asks to sign in again', async () => {
    await admin.goto(`${suite.stack.origin}/publishers`);
    await admin.getByRole('button', { name: 'Sign out' }).click();
    await admin.waitForURL(`${suite.stack.origin}/login`);
    await admin.goto(`${suite.stack.origin}/publishers/reports`);
    await admin.waitForURL(`${suite.stack.origin}/login?next=%2Fpublishers%2Freports`);
  });

  it('sends a signed-out visitor of the queue dashboard through /login and back to it', async () => {
    await admin.goto(`${suite.stack.origin}/admin/queues`);
    await admin.waitForURL(/\/login\?next=(%2F|\/)admin(%2F|\/)queues$/);
    await submitSignIn(admin, suite.stack.admin);
    await admin.waitForURL(`${suite.stack.origin}/admin/queues`);
    await admin.getByText('feed-import').first().waitFor({ timeout: 20_000 });
  });
});
