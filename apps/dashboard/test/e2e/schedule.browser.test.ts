// @vitest-environment node
import { createArticle, createSiteKey, setArticleEmbargo, setArticleHostSites } from '@newsroom/domain';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { screenshots, seriousAccessibilityViolations } from './support/browser';
import { signInAt } from './support/sign-in';
import { browserSuite } from './support/suite';

// Scheduled publishing in Chromium, against the real API, the worker's scheduler, Postgres and Redis: an editor
// schedules an article two seconds ahead and it appears on a child site's listing; the Scheduled view shows
// what is coming and what failed.

vi.setConfig({ testTimeout: 90_000 });
const suite = browserSuite({ schedule: true });
let admin: Page;
let siteKey: string;

beforeAll(async () => {
  const site = await suite.stack.db
    .insertInto('sites')
    .values({ slug: 'metro', name: 'Metro News', article_url_template: 'https://metro.example/news/{slug}' })
    .returning('id')
    .executeTakeFirstOrThrow();
  siteKey = (await createSiteKey(suite.stack.db, site.id, 'browser test')).secret;
  admin = await (await suite.profile()).newPage();
}, 180_000);

const listing = async (): Promise<string[]> => {
  const response = await fetch(`${suite.stack.origin}/api/v1/client/posts`, {
    headers: { 'x-api-key': siteKey },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { slug: string }[] }).data.map((a) => a.slug);
};

async function draft(title: string) {
  const article = await createArticle(suite.stack.db, {
    title,
    body: '<p>At six.</p>',
    tags: [],
    category: null,
    section: null,
    thumbnail: null,
    image: null,
  });
  await setArticleHostSites(suite.stack.db, article.id, ['metro']);
  return article;
}

describe('scheduled publishing in Chromium', () => {
  it('schedules an article two seconds ahead; it appears on the child site listing', async () => {
    const article = await draft('Harbour opens at dawn');
    await signInAt(admin, suite.stack.origin, suite.stack.admin);
    await admin.goto(`${suite.stack.origin}/articles/${article.id}`);

    const panel = admin.getByRole('region', { name: 'Publishing time' });
    await panel.getByLabel('At').check();
    const zone = await admin.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    const when = panel.getByLabel(`Date and time (${zone})`);
    // Two seconds from now, as the browser's local wall time (the field is in the named time zone).
    const inTwoSeconds = await admin.evaluate(() => {
      const d = new Date(Date.now() + 2_000);
      const p = (n: number) => String(n).padStart(2, '0');
      return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
    });
    await when.fill(inTwoSeconds);
    await panel.getByRole('button', { name: 'Schedule publish…' }).click();
    const dialog = admin.getByRole('alertdialog', { name: 'Publish this article?' });
    await expect.poll(() => dialog.textContent()).toContain('will appear on metro at');
    expect(await dialog.textContent()).toContain(zone);
    expect(await listing()).not.toContain(article.slug);
    await dialog.getByRole('button', { name: 'Schedule' }).click();
    await panel.getByText(/Publish at /).waitFor();

    await expect.poll(listing, { timeout: 30_000, interval: 200 }).toContain(article.slug);

    // Once live, the editor offers the article on its site.
    await admin.reload();
    const view = admin.getByRole('link', { name: 'View on site: Metro News' });
    await view.waitFor();
    expect(await view.getAttribute('href')).toBe(`https://metro.example/news/${article.slug}`);
    expect(await seriousAccessibilityViolations(admin)).toEqual([]);
  });

  it('shows an embargo prominently, and the Scheduled view by day with failures standing out', async () => {
    const embargoed = await draft('Agency report under embargo');
    const later = await draft('Evening edition');
    const gone = await draft('Deleted before its time');
    const inHours = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();
    await setArticleEmbargo(suite.stack.db, embargoed.id, new Date(inHours(5)), null, new Date());
    await suite.stack.db
      .insertInto('scheduled_actions')
      .values([
        { article_id: later.id, kind: 'publish', due_at: new Date(inHours(26)), created_by: null },
        {
          article_id: gone.id,
          kind: 'publish',
          due_at: new Date(Date.now() - 3600_000),
          created_by: null,
          status: 'failed',
          ran_at: new Date(),
          failure_reason: 'The article was deleted',
        },
      ])
      .execute();

    await admin.goto(`${suite.stack.origin}/articles/${embargoed.id}`);
    await admin
      .getByText(/Embargoed until/)
      .first()
      .waitFor();
    await screenshots(admin, 'schedule-editor');

    await admin.goto(`${suite.stack.origin}/articles`);
    await admin
      .getByText(/Embargoed until/)
      .first()
      .waitFor();

    await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Scheduled' }).click();
    await admin.getByRole('heading', { name: 'Scheduled' }).waitFor();
    await admin.getByRole('alert').getByText('1 scheduled action failed').waitFor();
    await admin.getByText('Failed: The article was deleted').waitFor();
    expect(await seriousAccessibilityViolations(admin)).toEqual([]);
    await screenshots(admin, 'schedule-view');

    await admin.getByRole('button', { name: 'Cancel Evening edition' }).click();
    await admin.getByRole('alertdialog').getByRole('button', { name: 'Cancel it' }).click();
    await admin.getByRole('button', { name: 'Cancel Evening edition' }).waitFor({ state: 'detached' });
    expect(suite.offsite).toEqual([]);
  });
});
