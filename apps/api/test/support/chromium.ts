import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

// Debian's chromium (apt-get install -y chromium). Missing is a failure, never a skip.
export const chromiumPath = '/usr/bin/chromium';
/** Headless, no background traffic, and loopback only: nothing may resolve or leave the machine. */
export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // Loopback only: nothing may resolve or leave the machine.
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
  '--dns-prefetch-disable',
];

/**
 * Headless Chromium on a fresh profile, allowed to reach 127.0.0.1 only: any other request is aborted
 * and listed in `blocked`. close() also removes the profile.
 */
export async function launchLoopbackChromium() {
  if (!existsSync(chromiumPath)) {
    throw new Error(`Chromium not found at ${chromiumPath}: browser tests need Debian's chromium`);
  }
  const userDataDir = mkdtempSync(join(tmpdir(), 'newsroom-chromium-'));
  const browser: BrowserContext = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumPath,
    args: chromiumArgs,
    headless: true,
  });
  const blocked: string[] = [];
  await browser.route('**/*', (route) => {
    if (new URL(route.request().url()).hostname === '127.0.0.1') return route.continue();
    blocked.push(route.request().url());
    return route.abort();
  });
  return {
    browser,
    blocked,
    async close() {
      await browser.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}
