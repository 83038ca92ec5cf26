// @vitest-environment node
import { base32Decode, totpAt } from '@newsroom/domain';
import { describe, expect, it } from 'vitest';
import { screenshots, seriousAccessibilityViolations } from './support/browser';
import { signInAt, submitSignIn } from './support/sign-in';
import { browserSuite } from './support/suite';

// Two-factor authentication in Chromium: turn it on in the Account view (the code computed here from the key
// the page shows, as an authenticator app would), sign out, sign in again with the password and a code.

const suite = browserSuite();

describe('two-factor authentication, in Chromium', { timeout: 120_000 }, () => {
  it('enrols with the QR code page, signs out, and signs in with the password and a code', async () => {
    const context = await suite.profile();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.stack.origin });
    const page = await context.newPage();
    await signInAt(page, suite.stack.origin, suite.stack.admin);

    await page.getByRole('link', { name: 'Account' }).first().click();
    await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    await page.getByRole('img', { name: 'QR code of your two-factor key' }).waitFor();
    const secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').replaceAll(' ', '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await screenshots(page, 'account-two-factor-enrol');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    const key = base32Decode(secret);
    await page.getByLabel('Code from the app').fill(totpAt(key, new Date()));
    await page.getByRole('button', { name: 'Turn on' }).click();
    const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await expect.poll(() => codes.count()).toBe(10);
    await screenshots(page, 'account-recovery-codes');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.getByLabel('I have saved these codes').check();
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByText(/10 of 10 recovery codes left/).waitFor();
    await screenshots(page, 'account-two-factor-on');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/login/);
    await submitSignIn(page, suite.stack.admin);
    const code = page.getByLabel('Authentication code');
    await code.waitFor();
    expect(await code.getAttribute('autocomplete')).toBe('one-time-code');
    await screenshots(page, 'login-second-step');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    // The next time step's code: the enrolment's own code is spent (a replay would be refused).
    await code.fill(totpAt(key, new Date(Date.now() + 30_000)));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(`${suite.stack.origin}/publishers`);
    await page.getByRole('heading', { name: 'Publishers', level: 1 }).waitFor();
    await context.close();
  });
});
