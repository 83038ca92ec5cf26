import { describe, expect, it } from 'vitest';
import { insertArticle, insertSite } from '../../../api/test/support/content-fixtures';
import { grant, insertStaff } from '../../../api/test/support/policy/staff-fixtures';
import { screenshots, seriousAccessibilityViolations } from './support/browser';
import { signInAt } from './support/sign-in';
import { browserSuite } from './support/suite';

// A reviewer opens a pending article in Chromium: it reads, it does not take typing (the note says why), and
// the review decision is there. No Save, nothing autosaved, nothing to lose on leaving.

const suite = browserSuite();
const password = 'reviewer password for the browser test';

describe('an article a reviewer may read but not change, in Chromium', { timeout: 120_000 }, () => {
  it('opens read-only: typing changes nothing, the decision stays, axe finds nothing serious', async () => {
    const siteId = await insertSite(suite.stack.db, 'read-only-browser');
    const reviewer = await insertStaff(suite.stack.app, suite.stack.db, 'reviewer', { password });
    await grant(suite.stack.db, reviewer.id, siteId, 'reviewer');
    const article = await insertArticle(suite.stack.db, { status: 'pending', siteIds: [siteId] });
    const context = await suite.profile();
    const page = await context.newPage();
    await signInAt(page, suite.stack.origin, { email: reviewer.email, password }, '/articles');

    await page.goto(`${suite.stack.origin}/articles/${article.id}`);
    await page.getByRole('note').filter({ hasText: 'You can read this article but not change it' }).waitFor();
    const title = page.getByRole('textbox', { name: 'Title' });
    expect(await title.isDisabled()).toBe(true);
    const body = page.getByRole('textbox', { name: 'Body' });
    const before = await body.textContent();
    await body.click();
    await page.keyboard.type('typed by mistake');
    expect(await body.textContent()).toBe(before);
    expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Approve' }).isEnabled()).toBe(true);
    expect(await page.getByText('Unsaved changes').count()).toBe(0);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshots(page, 'article-read-only');
    await context.close();
  });

  it('sent no request to another host', () => {
    expect(suite.offsite).toEqual([]);
  });
});
