// @vitest-environment node
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshots, seriousAccessibilityViolations } from './support/browser';
import { signInAt } from './support/sign-in';
import { browserSuite } from './support/suite';

// The /audit view in Chromium against the real API: the sign-in and a site's creation are entries, the site's
// "Audit entries" link opens the view filtered to it.

const suite = browserSuite();
let admin: Page;

beforeAll(async () => {
  admin = await (await suite.profile()).newPage();
}, 180_000);

describe('the audit log in Chromium', { timeout: 60_000 }, () => {
  it("lists the sign-in and a site's creation; the site's link filters to it", async () => {
    await signInAt(admin, suite.stack.origin, suite.stack.admin);

    await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sites' }).click();
    await admin.getByLabel('Site name').fill('Metro Gazette');
    await admin.getByLabel('Domain').fill('metro.gazette.example');
    await admin.getByRole('button', { name: 'Create site' }).click();
    await admin.getByRole('heading', { name: 'Metro Gazette', level: 2 }).waitFor();

    await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit' }).click();
    const table = admin.getByRole('table', { name: 'Audit entries' });
    await table.getByText('createSite').waitFor();
    await table.getByText('logIn').first().waitFor();
    expect(await seriousAccessibilityViolations(admin)).toEqual([]);
    await screenshots(admin, 'audit');

    await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sites' }).click();
    await admin.getByRole('link', { name: 'Audit entries of site Metro Gazette' }).click();
    await table.getByText('createSite').waitFor();
    expect(await table.getByText('logIn').count()).toBe(0);
  });
});
