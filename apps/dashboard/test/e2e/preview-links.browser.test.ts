// @vitest-environment node
import { insertArticle } from '@newsroom/domain';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshots, seriousAccessibilityViolations } from './support/browser';
import { signInAt } from './support/sign-in';
import { browserSuite } from './support/suite';

// Preview links in Chromium, against the real API serving the built dashboard: an editor makes a link in the
// article editor, another browser profile (no session, no key) opens it, the editor revokes it, and the link
// answers 404 from then on.

const suite = browserSuite();
let admin: Page;

beforeAll(async () => {
  admin = await (await suite.profile()).newPage();
}, 180_000);

describe('preview links in Chromium', { timeout: 90_000 }, () => {
  it('creates a link, opens it with no key, revokes it, and then it is a 404', async () => {
    const draft = await insertArticle(suite.stack.db, {
      title: 'Lighthouse keepers return',
      slug: 'lighthouse-keepers-return',
      body: '<p>Not published yet.</p>',
      tags: ['coast'],
      status: 'draft',
    });
    await admin
      .context()
      .grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.stack.origin });
    await signInAt(admin, suite.stack.origin, suite.stack.admin);
    await admin.goto(`${suite.stack.origin}/articles/${draft.id}`);
    const panel = admin.getByRole('region', { name: 'Preview links' });
    await panel.getByText('No active preview links.').waitFor();

    await panel.getByLabel('Shows').selectOption('pinned');
    await panel.getByRole('button', { name: 'Create preview link' }).click();
    const field = panel.getByRole('textbox', { name: 'New preview link' });
    await field.waitFor();
    const link = await field.inputValue();
    expect(link).toMatch(new RegExp(`^${suite.stack.origin}/api/v1/client/preview/npv_[A-Za-z0-9_-]{43}$`));
    await panel.getByRole('button', { name: 'Copy link' }).click();
    await panel.getByText('Copied to the clipboard.').waitFor();
    expect(await seriousAccessibilityViolations(admin)).toEqual([]);
    await panel.scrollIntoViewIfNeeded();
    await screenshots(admin, 'preview-link-created');

    // Another profile: no session cookie, no API key.
    const reader = await (await suite.profile()).newPage();
    const opened = await reader.goto(link);
    expect(opened?.status()).toBe(200);
    expect(opened?.headers()['cache-control']).toBe('no-store');
    expect(opened?.headers()['x-robots-tag']).toContain('noindex');
    expect(JSON.parse((await opened?.text()) ?? '')).toMatchObject({
      id: draft.id,
      title: 'Lighthouse keepers return',
    });

    await panel.getByRole('button', { name: 'Done' }).click();
    const prefix = link.split('/preview/')[1]?.slice(0, 10) ?? '';
    const row = panel.getByRole('row').filter({ hasText: `${prefix}…` });
    await row.getByRole('cell', { name: 'Pinned', exact: true }).waitFor();
    await screenshots(admin, 'preview-links-listed');
    await row.getByRole('button', { name: `Revoke preview link ${prefix}` }).click();
    const dialog = admin.getByRole('alertdialog');
    expect(await seriousAccessibilityViolations(admin)).toEqual([]);
    await dialog.getByRole('button', { name: 'Revoke link' }).click();
    await admin.getByText('Preview link revoked').first().waitFor();
    await panel.getByText('No active preview links.').waitFor();

    const revoked = await reader.goto(link);
    expect(revoked?.status()).toBe(404);
    expect(JSON.parse((await revoked?.text()) ?? '')).toMatchObject({ code: 'PREVIEW_NOT_FOUND' });
    expect(suite.offsite).toEqual([]);
  });
});
