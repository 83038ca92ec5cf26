// @vitest-environment node
/// <reference path="../../../api/test/support/s3rver.d.ts" />
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { insertSite, issueSiteKey } from '../../../api/test/support/content-fixtures';
import { screenshots, seriousAccessibilityViolations } from './support/browser';
import { solidPng } from './support/picture';
import { signInAt } from './support/sign-in';
import { browserSuite } from './support/suite';

// The article views in Chromium against the real API, worker, Postgres, Redis and a signature-verifying
// S3-compatible server on loopback. The tests run in order and build on each other.

const suite = browserSuite({ uploads: true });
let context: BrowserContext;
let editor: Page;
let metroKey = '';
let articleId = '';

const png = solidPng(320, 180);

beforeAll(async () => {
  const metro = await insertSite(suite.stack.db, 'metro');
  await insertSite(suite.stack.db, 'coast');
  await insertSite(suite.stack.db, 'valley');
  metroKey = (await issueSiteKey(suite.stack.db, metro, 'metro site')).key;
  context = await suite.profile();
  editor = await context.newPage();
}, 180_000);

async function expectAccessible(page: Page) {
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
}

const signIn = (page: Page) => signInAt(page, suite.stack.origin, suite.stack.admin);

/** The toasts closed, so they do not cover the screenshots. */
async function closeToasts(page: Page) {
  const close = page.locator('.toast button');
  // Each closes with an animation; the others may close on their own meanwhile.
  for (let i = 0; i < 5 && (await close.count()) > 0; i++)
    await close
      .first()
      .click({ timeout: 2_000 })
      .catch(() => {});
  await close.first().waitFor({ state: 'detached', timeout: 10_000 });
}

const stored = (id: string) =>
  suite.stack.db.selectFrom('articles').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('the article views in Chromium', { timeout: 90_000 }, () => {
  it('shows the empty list from the navigation', async () => {
    await signIn(editor);
    await editor.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Articles' }).click();
    await editor.getByText('No articles yet').waitFor();
    await expectAccessible(editor);
  });

  it('writes an article with a bold paragraph, a link, tags, two sites and an uploaded thumbnail, then publishes it', async () => {
    await editor.getByRole('link', { name: 'New article' }).click();
    await editor.getByRole('heading', { name: 'New article' }).waitFor();
    await editor.getByLabel('Title').fill('Harbour reopens on Monday');

    const body = editor.getByRole('textbox', { name: 'Body' });
    await body.click();
    await editor.keyboard.type('The harbour reopens on Monday. ');
    await editor.getByRole('button', { name: 'Bold', exact: true }).click();
    await editor.keyboard.type('Ferries run hourly.');
    await editor.getByRole('button', { name: 'Bold', exact: true }).click();
    await editor.keyboard.type(' See the details');
    await editor.keyboard.down('Shift');
    for (let i = 0; i < 'details'.length; i++) await editor.keyboard.press('ArrowLeft');
    await editor.keyboard.up('Shift');
    await editor.getByRole('button', { name: 'Link', exact: true }).click();
    await editor.getByLabel('Link address').fill('https://port.example/timetable');
    await editor.getByRole('button', { name: 'Apply link' }).click();

    const tags = editor.getByLabel('Tags', { exact: true });
    await tags.fill('harbour');
    await tags.press('Enter');
    await tags.fill('Ferries,');
    await editor.getByRole('button', { name: 'Remove tag Ferries' }).waitFor();
    await editor.getByLabel('Category').fill('Local');
    await editor.getByLabel('Section').fill('Transport');
    await editor.getByRole('checkbox', { name: 'Site metro' }).check();
    await editor.getByRole('checkbox', { name: 'Site coast' }).check();

    await editor.getByLabel('Choose thumbnail file').setInputFiles({
      name: 'harbour.png',
      mimeType: 'image/png',
      buffer: png,
    });
    const thumbnail = editor.getByLabel('Thumbnail', { exact: true });
    await expect
      .poll(() => thumbnail.inputValue(), { timeout: 20_000 })
      .toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    const thumbnailUrl = await thumbnail.inputValue();
    await editor.getByRole('img', { name: 'Thumbnail preview' }).waitFor();
    // A picture set by an editor needs its alt text (issue 32).
    await editor.getByLabel('Thumbnail alt text').fill('The harbour at dawn');
    // The focal point, clicked on the picture as laid out (a quarter across, three quarters down).
    const picker = editor.getByRole('button', { name: /^Thumbnail focal point/ });
    const box = await picker.boundingBox();
    if (!box) throw new Error('the focal-point picker is not laid out');
    await picker.click({ position: { x: box.width * 0.25, y: box.height * 0.75 } });
    await expect.poll(() => picker.getAttribute('aria-label')).toMatch(/25% across, 75% down/);

    await editor.getByRole('button', { name: 'Create draft' }).click();
    await editor.waitForURL(/\/articles\/[0-9a-f-]{36}$/);
    articleId = editor.url().split('/').pop() as string;
    await editor.getByRole('button', { name: 'Publish', exact: true }).click();
    await editor.locator('.toast').getByText('Published').waitFor();
    await editor.getByText('All changes saved').waitFor();
    await expectAccessible(editor);
    await closeToasts(editor);
    await screenshots(editor, 'article-editor');

    const article = await stored(articleId);
    expect(article.status).toBe('published');
    expect(article.body).toContain('<strong>Ferries run hourly.</strong>');
    expect(article.body).toMatch(/<a [^>]*href="https:\/\/port\.example\/timetable"[^>]*>details<\/a>/);
    expect(article.tags).toEqual(['harbour', 'Ferries']);
    expect(article.thumbnail).toBe(thumbnailUrl);
    expect(article.thumbnail_meta).toMatchObject({
      alt: 'The harbour at dawn',
      focalPoint: { x: 0.25, y: 0.75 },
    });
    // The file is in the store, at its public URL, byte for byte.
    const file = await fetch(thumbnailUrl);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(png)).toBe(true);

    // A child site's key of one of the two sites gets it from the client API.
    const client = await fetch(`${suite.stack.origin}/api/v1/client/article/${article.slug}`, {
      headers: { 'x-api-key': metroKey },
    });
    expect(client.status).toBe(200);
    expect(await client.json()).toMatchObject({
      title: 'Harbour reopens on Monday',
      thumbnail: thumbnailUrl,
    });
  });

  it('checks a new slug with the server and saves it', async () => {
    const slug = editor.getByLabel('Slug');
    await slug.fill('Not A Slug');
    await editor.getByText('Use lower-case letters, digits and single dashes').waitFor();
    await slug.fill('harbour-reopens-monday');
    await editor.getByText('Available').waitFor();
    await editor.getByRole('button', { name: 'Save', exact: true }).click();
    await editor.locator('.toast').getByText('Saved').waitFor();
    expect((await stored(articleId)).slug).toBe('harbour-reopens-monday');
  });

  it('asks before leaving with unsaved changes', async () => {
    await editor.getByLabel('Title').fill('Harbour reopens on Monday, officially');
    await editor.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Articles' }).click();
    await editor.getByRole('alertdialog', { name: 'Leave without saving?' }).waitFor();
    await editor.getByRole('button', { name: 'Cancel' }).click();
    expect(editor.url()).toBe(`${suite.stack.origin}/articles/${articleId}`);
    expect(await editor.getByLabel('Title').inputValue()).toBe('Harbour reopens on Monday, officially');
    await editor.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Articles' }).click();
    await editor.getByRole('button', { name: 'Leave without saving' }).click();
    await editor.waitForURL(`${suite.stack.origin}/articles`);
    expect((await stored(articleId)).title).toBe('Harbour reopens on Monday');
  });

  it('stores a pasted body with <script> and onerror= clean', async () => {
    await editor.goto(`${suite.stack.origin}/articles/new`);
    await editor.getByLabel('Title').fill('Pasted from elsewhere');
    const body = editor.getByRole('textbox', { name: 'Body' });
    await body.click();
    await body.evaluate((element) => {
      const data = new DataTransfer();
      data.setData(
        'text/html',
        '<p>Safe text<img src="x" onerror="alert(1)"></p><script>alert(2)</script><p onclick="alert(3)">More</p>',
      );
      element.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
      );
    });
    await editor.getByRole('button', { name: 'Create draft' }).click();
    await editor.waitForURL(/\/articles\/[0-9a-f-]{36}$/);
    const article = await stored(editor.url().split('/').pop() as string);
    expect(article.body).toContain('Safe text');
    expect(article.body).not.toMatch(/<script|onerror|onclick|alert/i);
  });

  it('lists the articles with filters and counts', async () => {
    await editor.goto(`${suite.stack.origin}/articles`);
    await editor.getByRole('link', { name: 'Harbour reopens on Monday' }).waitFor();
    await editor.getByRole('link', { name: 'Pasted from elsewhere' }).waitFor();
    await expectAccessible(editor);
    await screenshots(editor, 'articles');
    await editor.getByLabel('Site').selectOption('metro');
    await editor.waitForURL(/site=metro/);
    await expect.poll(() => editor.getByRole('link', { name: 'Pasted from elsewhere' }).count()).toBe(0);
    await editor.getByRole('link', { name: 'Harbour reopens on Monday' }).waitFor();
    await editor.getByLabel('Site').selectOption('');
    await editor.getByRole('button', { name: /^draft 1$/ }).waitFor();
  });

  it('gives a stale save the conflict prompt and loses nothing', async () => {
    const other = await suite.profile();
    const second = await other.newPage();
    try {
      await signIn(second);
      await second.goto(`${suite.stack.origin}/articles/${articleId}`);
      await second.getByLabel('Category').waitFor();
      await editor.goto(`${suite.stack.origin}/articles/${articleId}`);

      await editor.getByLabel('Section').fill('Ferries');
      await editor.getByRole('button', { name: 'Save', exact: true }).click();
      await editor.locator('.toast').getByText('Saved').waitFor();

      await second.getByLabel('Category').fill('Harbour');
      await second.getByRole('button', { name: 'Save', exact: true }).click();
      await second.getByRole('alertdialog', { name: 'Changed by someone else' }).waitFor();
      expect(await second.getByLabel('Category', { exact: true }).inputValue()).toBe('Harbour');
      await expectAccessible(second);
      await screenshots(second, 'article-conflict');
      await second.getByRole('button', { name: 'Overwrite' }).click();
      await second.locator('.toast').getByText('Saved over the other version').waitFor();

      const article = await stored(articleId);
      expect(article).toMatchObject({ category: 'Harbour', section: 'Ferries' });
    } finally {
      await other.close();
    }
  });

  it('unpublishes articles in bulk after a confirmation and reports each one', async () => {
    await editor.goto(`${suite.stack.origin}/articles`);
    await editor.getByRole('checkbox', { name: 'Select all articles on this page' }).check();
    await editor.getByRole('button', { name: 'Unpublish selected' }).click();
    await editor.getByRole('button', { name: 'Unpublish 2 articles' }).click();
    await editor.getByText('Unpublish: 1 of 2 done.').waitFor();
    await editor.getByText(/Pasted from elsewhere: /).waitFor();
    expect((await stored(articleId)).status).toBe('draft');
  });

  it('made no request to another host', () => {
    expect(suite.offsite).toEqual([]);
  });
});
