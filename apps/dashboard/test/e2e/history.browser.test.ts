// @vitest-environment node
import { editArticle } from '@newsroom/domain';
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshots, seriousAccessibilityViolations } from './support/browser';
import { signInAt } from './support/sign-in';
import { browserSuite } from './support/suite';

// The History panel in Chromium against the real API and Postgres: an article edited three times, two
// versions compared side by side, one restored after a confirmation.

const suite = browserSuite();
let context: BrowserContext;
let page: Page;
let articleId = '';

beforeAll(async () => {
  context = await suite.profile();
  page = await context.newPage();
}, 180_000);

const revisionsOf = (id: string) =>
  suite.stack.db
    .selectFrom('article_revisions')
    .selectAll()
    .where('article_id', '=', id)
    .orderBy('n', 'desc')
    .execute();

async function closeToasts() {
  const close = page.locator('.toast button');
  for (let i = 0; i < 5 && (await close.count()) > 0; i++)
    await close
      .first()
      .click({ timeout: 2_000 })
      .catch(() => {});
  await close.first().waitFor({ state: 'detached', timeout: 10_000 });
}

describe('article history in Chromium', { timeout: 90_000 }, () => {
  it('edits an article three times, compares two versions and restores one', async () => {
    await signInAt(page, suite.stack.origin, suite.stack.admin);

    await page.goto(`${suite.stack.origin}/articles/new`);
    await page.getByLabel('Title').fill('Bridge closed for repairs');
    await page.getByRole('textbox', { name: 'Body' }).click();
    await page.keyboard.type('The bridge is closed until Friday.');
    await page.getByRole('button', { name: 'Create draft' }).click();
    await page.waitForURL(/\/articles\/[0-9a-f-]{36}$/);
    articleId = page.url().split('/').pop() as string;

    const titles = ['Bridge closed until Friday', 'Bridge reopens on Friday', 'Bridge reopens early'];
    for (const [index, title] of titles.entries()) {
      await page.getByLabel('Title').fill(title);
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await expect.poll(async () => (await revisionsOf(articleId)).length).toBe(index + 2);
      await page.getByText(/^Saved \d/).waitFor();
    }
    const revisions = await revisionsOf(articleId);
    expect(revisions.map((revision) => revision.n)).toEqual([4, 3, 2, 1]);
    expect(revisions.every((revision) => revision.actor_label === suite.stack.admin.email)).toBe(true);

    await page.getByText('History', { exact: true }).click();
    const list = page.getByRole('list', { name: 'Revisions' });
    await expect.poll(() => list.getByRole('listitem').count()).toBe(4);
    await page.getByRole('checkbox', { name: 'Compare revision 2' }).check();
    await page.getByRole('checkbox', { name: 'Compare revision 4' }).check();
    const diff = page.getByRole('region', { name: 'Revision 2 compared with revision 4' });
    await diff.getByText('Bridge closed until Friday').waitFor();
    await diff.getByText('Bridge reopens early').waitFor();
    await closeToasts();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshots(page, 'article-history');

    await page.getByRole('button', { name: 'Restore revision 2' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Restore revision 2?' });
    await confirm.getByText('The status does not change').waitFor();
    await confirm.getByRole('button', { name: 'Restore' }).click();
    await page.locator('.toast').getByText('Revision 2 restored as revision 5').waitFor();
    await expect.poll(() => page.getByLabel('Title').inputValue()).toBe('Bridge closed until Friday');

    const stored = await suite.stack.db
      .selectFrom('articles')
      .select(['title', 'status'])
      .where('id', '=', articleId)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ title: 'Bridge closed until Friday', status: 'draft' });
    const [newest] = await revisionsOf(articleId);
    expect(newest).toMatchObject({ n: 5, source: 'restore', actor_kind: 'user' });
    await expect.poll(() => list.getByRole('listitem').count()).toBe(5);

    // Twenty more (an API client's): the panel shows the newest 20, "Show older" (by keyboard) the rest.
    const client = {
      actor: { kind: 'api-client' as const, id: null, label: 'wire@example.com' },
      source: 'api' as const,
    };
    for (let i = 1; i <= 20; i++) {
      await editArticle(suite.stack.db, articleId, { title: `Bridge update ${i}` }, undefined, client);
    }
    await page.reload();
    await page.getByText('History', { exact: true }).click();
    await expect.poll(() => list.getByRole('listitem').count()).toBe(20);
    await page.getByText('Showing the newest 20 of 25.').waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshots(page, 'article-history-paged');
    await page.getByRole('button', { name: 'Show older' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => list.getByRole('listitem').count()).toBe(25);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe('Compare revision 5');
    expect(suite.offsite).toEqual([]);
  });
});
