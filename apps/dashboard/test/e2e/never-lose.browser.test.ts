// @vitest-environment node
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { insertArticle } from '../../../api/test/support/content-fixtures';
import { screenshots, seriousAccessibilityViolations } from './support/browser';
import { signInAt } from './support/sign-in';
import { browserSuite } from './support/suite';

// A writer's text survives the edges: a session that ends while editing (sign-in dialog over the editor,
// then the save is retried), a closed tab (the browser's copy is offered back) and autosave to the server.

const suite = browserSuite();

/** A signed-out browser profile of its own (its cookie and local storage), and a signed-in tab in it. */
async function signedInTab(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await suite.profile();
  const page = await context.newPage();
  await signInAt(page, suite.stack.origin, suite.stack.admin);
  return { context, page };
}

/** The article as the API serves it to an administrator (a bearer token of its own, not the browser's session). */
async function fromApi(id: string): Promise<{ title: string; body: string; status: string }> {
  const login = await fetch(`${suite.stack.origin}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: suite.stack.admin.email, password: suite.stack.admin.password }),
  });
  const { token } = (await login.json()) as { token: string };
  const response = await fetch(`${suite.stack.origin}/api/v1/article/${id}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
  return response.json() as Promise<{ title: string; body: string; status: string }>;
}

async function openEditor(page: Page, id: string, title: string) {
  await page.goto(`${suite.stack.origin}/articles/${id}`);
  await page.getByRole('heading', { name: 'Edit article' }).waitFor();
  await expect.poll(() => page.getByLabel('Title').inputValue(), { timeout: 15_000 }).toBe(title);
}

/** Types at the end of the body. */
async function typeInBody(page: Page, text: string) {
  const body = page.getByRole('textbox', { name: 'Body' });
  await body.click();
  await page.keyboard.press('End');
  await page.keyboard.type(text);
}

describe('never losing a writer’s text, in Chromium', { timeout: 120_000 }, () => {
  it('keeps the text when the session ends: a sign-in dialog over the editor, then the save lands', async () => {
    // Published: no autosave runs, so the Save click is what meets the ended session.
    const article = await insertArticle(suite.stack.db, {
      status: 'published',
      title: 'Harbour bridge reopens',
      body: '<p>Traffic is back.</p>',
    });
    const { context, page } = await signedInTab();
    await openEditor(page, article.id, 'Harbour bridge reopens');
    await typeInBody(page, ' Buses follow on Tuesday.');

    // The session ends on the server (idle timeout, sign-out elsewhere, a password change in another tab).
    await suite.stack.db.deleteFrom('dashboard_sessions').execute();
    await page.getByRole('button', { name: 'Save', exact: true }).click();

    const dialog = page.getByRole('dialog', { name: 'Sign in again' });
    await dialog.waitFor({ timeout: 15_000 });
    expect(page.url()).toBe(`${suite.stack.origin}/articles/${article.id}`);
    // Under the modal dialog the view is hidden from assistive technology (aria-hidden), not gone.
    expect(await page.getByRole('textbox', { name: 'Body', includeHidden: true }).textContent()).toContain(
      'Buses follow on Tuesday.',
    );
    // The focus starts in the password field and stays inside the dialog.
    const focusInDialog = () =>
      page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]')));
    expect(await focusInDialog()).toBe(true);
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      expect(await focusInDialog()).toBe(true);
    }
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshots(page, 'reauth-dialog');

    await dialog.getByLabel('Password').fill(suite.stack.admin.password);
    await dialog.getByRole('button', { name: 'Sign in' }).click();
    await dialog.waitFor({ state: 'detached', timeout: 15_000 });
    await page.locator('.toast').getByText('Saved', { exact: true }).waitFor({ timeout: 15_000 });
    expect((await fromApi(article.id)).body).toContain('Buses follow on Tuesday.');
    expect(await page.getByRole('textbox', { name: 'Body' }).textContent()).toContain(
      'Buses follow on Tuesday.',
    );
    await context.close();
  });

  it('offers the text of a closed tab back when the editor opens again', async () => {
    const { context, page } = await signedInTab();
    await page.goto(`${suite.stack.origin}/articles/new`);
    await page.getByRole('heading', { name: 'New article' }).waitFor();
    await page.getByLabel('Title').fill('Storm warning for the coast');
    await typeInBody(page, 'Winds of 90 km/h are expected tonight.');
    // The browser's copy is written as the text changes; wait for it (bounded), then the tab is gone.
    await expect
      .poll(() => page.evaluate(() => JSON.stringify({ ...localStorage })), { timeout: 10_000 })
      .toContain('Winds of 90 km/h');
    await page.close();

    const reopened = await context.newPage();
    await reopened.goto(`${suite.stack.origin}/articles/new`);
    const offer = reopened.getByRole('region', { name: 'Unsaved text from before' });
    await offer.waitFor({ timeout: 15_000 });
    expect(await seriousAccessibilityViolations(reopened)).toEqual([]);
    await screenshots(reopened, 'restore-offer');
    await offer.getByRole('button', { name: 'Restore' }).click();
    await expect.poll(() => reopened.getByLabel('Title').inputValue()).toBe('Storm warning for the coast');
    expect(await reopened.getByRole('textbox', { name: 'Body' }).textContent()).toContain(
      'Winds of 90 km/h are expected tonight.',
    );
    await reopened.getByRole('button', { name: 'Create draft' }).click();
    await reopened.waitForURL(/\/articles\/[0-9a-f-]{36}$/);
    const id = reopened.url().split('/').pop() as string;
    expect((await fromApi(id)).body).toContain('Winds of 90 km/h are expected tonight.');
    // The server has the text: the copy is gone, nothing is offered at the next new article.
    await reopened.goto(`${suite.stack.origin}/articles/new`);
    await reopened.getByRole('heading', { name: 'New article' }).waitFor();
    await reopened.getByLabel('Title').waitFor();
    expect(await reopened.getByRole('region', { name: 'Unsaved text from before' }).count()).toBe(0);
    await context.close();
  });

  it('autosaves a draft a few seconds after typing stops, without publishing it', async () => {
    const article = await insertArticle(suite.stack.db, {
      status: 'draft',
      title: 'Council budget vote',
      body: '<p>The vote is on Thursday.</p>',
    });
    const { context, page } = await signedInTab();
    await openEditor(page, article.id, 'Council budget vote');
    await typeInBody(page, ' Seven of nine members must agree.');
    await page.getByText(/^Saved \d{2}:\d{2}$/).waitFor({ timeout: 20_000 });
    const stored = await fromApi(article.id);
    expect(stored.body).toContain('Seven of nine members must agree.');
    expect(stored.status).toBe('draft');

    // The writer's own Save after an autosave is no conflict.
    await page.getByLabel('Title').fill('Council budget vote on Thursday');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.locator('.toast').getByText('Saved', { exact: true }).waitFor({ timeout: 15_000 });
    expect(await page.getByRole('alertdialog', { name: 'Changed by someone else' }).count()).toBe(0);
    expect((await fromApi(article.id)).title).toBe('Council budget vote on Thursday');
    await context.close();
  });

  it('made no request to another host', () => {
    expect(suite.offsite).toEqual([]);
  });
});
