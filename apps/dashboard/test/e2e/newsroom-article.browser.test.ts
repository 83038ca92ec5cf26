// @vitest-environment node
/// <reference path="../../../api/test/support/s3rver.d.ts" />
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { insertSite, issueSiteKey } from '../../../api/test/support/content-fixtures';
import { screenshots, seriousAccessibilityViolations } from './support/browser';
import { solidPng } from './support/picture';
import { signInAt } from './support/sign-in';
import { browserSuite } from './support/suite';

// Issue 32 in Chromium against the real API, worker, Postgres, Redis and a signature-verifying S3-compatible
// store on loopback: an editor writes an article with a staff byline, a standfirst and a picture uploaded into
// the body with alt text and caption, publishes it, adds a correction, and a child site reads it all with its
// key. The tests run in order and build on each other.

const suite = browserSuite({ uploads: true });
let editor: Page;
let metroKey = '';
let articleId = '';
let pictureUrl = '';

const picture = solidPng(640, 360);

beforeAll(async () => {
  const metro = await insertSite(suite.stack.db, 'metro');
  metroKey = (await issueSiteKey(suite.stack.db, metro, 'metro site')).key;
  // A colleague with a display name: the byline picker offers her.
  await suite.stack.db
    .insertInto('users')
    .values({
      email: 'ann@staff.example',
      password_hash: 'no-password',
      role: 'editor',
      display_name: 'Ann Lee',
    })
    .execute();
  editor = await (await suite.profile()).newPage();
  await signInAt(editor, suite.stack.origin, suite.stack.admin);
}, 180_000);

const stored = (id: string) =>
  suite.stack.db.selectFrom('articles').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('a newsroom article in Chromium', { timeout: 120_000 }, () => {
  it('writes a staff byline, a standfirst and an uploaded figure with alt text and caption', async () => {
    await editor.goto(`${suite.stack.origin}/articles/new`);
    await editor.getByRole('heading', { name: 'New article' }).waitFor();
    await editor.getByLabel('Title').fill('Harbour reopens on Monday');
    await editor.getByLabel('Standfirst').fill('Ferries return after six weeks of repairs.');

    // Bylines: a free name, then a team member moved to the front.
    await editor.getByRole('button', { name: 'Add byline' }).click();
    await editor.getByLabel('Author 1 name').fill('Metro Wire');
    await editor.getByLabel('Team member').selectOption({ label: 'Ann Lee' });
    await editor.getByRole('button', { name: 'Add team member' }).click();
    await editor.getByRole('button', { name: 'Move author 2 up' }).click();
    await editor.getByText('(staff)').waitFor();

    const body = editor.getByRole('textbox', { name: 'Body' });
    await body.click();
    await editor.keyboard.type('The harbour reopens on Monday.');
    await editor.getByRole('button', { name: 'Image', exact: true }).click();
    const panel = editor.getByRole('group', { name: 'Insert image' });
    await panel.getByLabel('Upload image file').setInputFiles({
      name: 'harbour.png',
      mimeType: 'image/png',
      buffer: picture,
    });
    const address = panel.getByLabel('Image address');
    await expect
      .poll(() => address.inputValue(), { timeout: 20_000 })
      .toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    pictureUrl = await address.inputValue();
    // No alt text: refused with a message on the field, nothing inserted.
    await panel.getByRole('button', { name: 'Insert image' }).click();
    await panel
      .getByText('Alt text is required: describe the picture for readers who cannot see it.')
      .waitFor();
    await panel.getByLabel('Image alt text').fill('Ferries moored at the harbour wall');
    await panel.getByLabel('Image caption').fill('The harbour on Sunday');
    await panel.getByRole('button', { name: 'Insert image' }).click();
    await body.locator('figure img[alt="Ferries moored at the harbour wall"]').waitFor();

    // The figure's caption edited: select it, then the toolbar's Edit image.
    await body.locator('figure').click();
    await editor.getByRole('button', { name: 'Edit image' }).click();
    const edit = editor.getByRole('group', { name: 'Edit image' });
    await edit.getByLabel('Image caption').fill('The harbour on Sunday, the day before it reopened');
    await edit.getByRole('button', { name: 'Apply' }).click();
    await body.getByText('The harbour on Sunday, the day before it reopened').waitFor();

    await editor.getByRole('checkbox', { name: 'Site metro' }).check();
    await editor.getByRole('button', { name: 'Create draft' }).click();
    await editor.waitForURL(/\/articles\/[0-9a-f-]{36}$/);
    articleId = editor.url().split('/').pop() as string;
    await editor.getByText('All changes saved').waitFor();
    // The uploaded picture's natural size went into the figure.
    await body.locator('figure img[width="640"][height="360"]').waitFor();
    expect(await seriousAccessibilityViolations(editor)).toEqual([]);
    await screenshots(editor, 'article-editor-figure');

    const article = await stored(articleId);
    // Kept by the sanitiser (the upload store is on loopback here: its own storage is trusted), as written.
    expect(article.body).toContain(
      `<p>The harbour reopens on Monday.</p><figure><img src="${pictureUrl}" alt="Ferries moored at the harbour wall" width="640" height="360" /><figcaption>The harbour on Sunday, the day before it reopened</figcaption></figure>`,
    );
    expect(article.bylines.map((b) => [b.name, b.userId !== null])).toEqual([
      ['Ann Lee', true],
      ['Metro Wire', false],
    ]);
    // The file is in the store, at its public URL, byte for byte.
    const file = await fetch(pictureUrl);
    expect(Buffer.from(await file.arrayBuffer()).equals(picture)).toBe(true);
  });

  it('publishes, adds a correction, and a child site reads it all with its key', async () => {
    await editor.getByRole('button', { name: 'Publish', exact: true }).click();
    await editor.locator('.toast').getByText('Published').waitFor();
    await editor.getByLabel('Add correction').fill('The harbour reopens at 6am, not 7am.');
    await editor.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(async () => (await stored(articleId)).corrections.length, { timeout: 20_000 }).toBe(1);

    const { slug } = await stored(articleId);
    const response = await fetch(`${suite.stack.origin}/api/v1/client/article/${slug}`, {
      headers: { 'x-api-key': metroKey },
    });
    expect(response.status).toBe(200);
    const read = await response.json();
    expect(read).toMatchObject({
      title: 'Harbour reopens on Monday',
      standfirst: 'Ferries return after six weeks of repairs.',
      bylines: [
        { name: 'Ann Lee', url: null },
        { name: 'Metro Wire', url: null },
      ],
      corrections: [{ text: 'The harbour reopens at 6am, not 7am.' }],
    });
    expect(read.body).toContain(
      `<figure><img src="${pictureUrl}" alt="Ferries moored at the harbour wall" width="640" height="360" /><figcaption>The harbour on Sunday, the day before it reopened</figcaption></figure>`,
    );
  });

  it('made no request to another host', () => {
    expect(suite.offsite).toEqual([]);
  });
});
