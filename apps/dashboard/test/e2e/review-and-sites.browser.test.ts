// @vitest-environment node
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { screenshots, seriousAccessibilityViolations } from './support/browser';
import { signInAt } from './support/sign-in';
import { newsFeed, thumbnailSvg } from './support/stack';
import { browserSuite } from './support/suite';

// Issue 13's review queue and child sites in Chromium, against the real API, import worker, Postgres,
// Redis and a loopback feed server. The tests run in order and build on each other.

const suite = browserSuite();
let admin: Page;
let publisherId = '';
let siteKey = '';

beforeAll(async () => {
  suite.stack.feeds.route('/feed.rss', { body: newsFeed(suite.stack.feeds, 3) });
  suite.stack.feeds.route('/thumb.svg', { body: thumbnailSvg, contentType: 'image/svg+xml' });
  // An approved publisher whose items wait for review (auto-approve off, the default).
  const row = await suite.stack.db
    .insertInto('publishers')
    .values({
      name: 'Harbour Gazette',
      approved: true,
      feed_url: suite.stack.feeds.url('/feed.rss'),
      default_tags: [],
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  publisherId = row.id;
  admin = await (await suite.profile()).newPage();
}, 180_000);

async function expectAccessible(page: Page) {
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
}

const statuses = async () =>
  (await suite.stack.db.selectFrom('articles').select('status').orderBy('status').execute()).map(
    (row) => row.status,
  );

const clientPosts = (key: string) =>
  fetch(`${suite.stack.origin}/api/v1/client/posts`, { headers: { 'x-api-key': key } }).then(
    (response) => response.status,
  );

describe('review queue and child sites in Chromium', { timeout: 60_000 }, () => {
  it('imports three items for review with "Import now"', async () => {
    await signInAt(admin, suite.stack.origin, suite.stack.admin);
    await admin.goto(`${suite.stack.origin}/publishers/${publisherId}`);
    await admin.getByRole('button', { name: 'Import now' }).click();
    await admin.getByText(/Done: 3 items fetched, 3 new articles inserted/).waitFor({ timeout: 30_000 });
    expect(await statuses()).toEqual(['pending', 'pending', 'pending']);
  });

  it('approves two and rejects one by keyboard, the count in the navigation following', async () => {
    await admin.reload();
    const nav = admin.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: /^Review\W+3 pending$/ }).click();
    await admin.waitForURL(`${suite.stack.origin}/review`);
    const preview = admin.getByRole('region', { name: 'Preview' });
    await preview.getByRole('heading', { level: 2 }).waitFor();
    await admin.getByText('previous article').waitFor();
    await expectAccessible(admin);
    await screenshots(admin, 'review');

    const selected = () => admin.locator('.review-item.is-selected .review-item-title').textContent();
    const first = await selected();
    await admin.keyboard.press('a');
    await admin.locator('.toast').getByText(`Approved “${first}”`).waitFor();
    const second = await selected();
    expect(second).not.toBe(first);
    await admin.keyboard.press('a');
    await admin.locator('.toast').getByText(`Approved “${second}”`).waitFor();
    const third = await selected();
    await admin.keyboard.press('r');
    await admin.locator('.toast').getByText(`Rejected “${third}”`).waitFor();
    await admin.getByText('Nothing is waiting for review.').waitFor();
    expect(await statuses()).toEqual(['published', 'published', 'rejected']);
    await nav.getByRole('link', { name: 'Review', exact: true }).waitFor();
  });

  it('creates a site and a key shown once, which reads the client API until it is revoked', async () => {
    await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sites' }).click();
    await admin.getByText('No sites yet. Create the first one above.').waitFor();
    await admin.getByLabel('Site name').fill('Harbour Daily');
    await admin.getByLabel('Domain').fill('daily.harbour.example');
    await admin.getByRole('button', { name: 'Create site' }).click();
    await admin.getByRole('heading', { name: 'Harbour Daily', level: 2 }).waitFor();

    await admin.getByRole('button', { name: 'API keys of Harbour Daily' }).click();
    await admin.getByLabel('Key name').fill('production');
    await admin.getByRole('button', { name: 'Create key' }).click();
    await admin.getByRole('heading', { name: 'Copy the key “production” now' }).waitFor();
    siteKey = await admin.getByLabel('New API key', { exact: true }).inputValue();
    expect(siteKey).toMatch(/^nsk_/);
    await expectAccessible(admin);
    await screenshots(admin, 'sites');
    expect(await clientPosts(siteKey)).toBe(200);

    await admin.getByRole('button', { name: 'I have stored the key' }).click();
    await admin.getByLabel('New API key', { exact: true }).waitFor({ state: 'detached' });
    expect(await admin.content()).not.toContain(siteKey);
    // The keys table names each key's kind; the form offers a publishable one.
    await admin.getByRole('cell', { name: 'Secret', exact: true }).waitFor();
    await admin.getByRole('checkbox', { name: /Publishable/ }).waitFor();
    await screenshots(admin, 'site-keys');
    await admin.getByRole('button', { name: 'Revoke key production' }).click();
    const dialog = admin.getByRole('alertdialog', { name: 'Revoke the key “production”?' });
    await expectAccessible(admin);
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await admin.getByRole('cell', { name: /^Revoked/ }).waitFor();
    await vi.waitFor(async () => expect(await clientPosts(siteKey)).toBe(401), {
      timeout: 5_000,
      interval: 100,
    });
  });

  it('warns before deleting a site', async () => {
    await admin.getByRole('button', { name: 'Delete Harbour Daily' }).click();
    const dialog = admin.getByRole('alertdialog', { name: 'Delete Harbour Daily?' });
    await dialog.getByText(/API keys stop working/).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('sent no request to another host', () => {
    expect(suite.offsite).toEqual([]);
  });
});
