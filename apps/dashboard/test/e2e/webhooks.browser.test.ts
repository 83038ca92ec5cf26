// @vitest-environment node
import { insertArticle } from '@newsroom/domain';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startWebhookReceiver } from '../../../worker/test/support/webhook-receiver';
import { screenshots, seriousAccessibilityViolations } from './support/browser';
import { signInAt } from './support/sign-in';
import { browserSuite } from './support/suite';

// The /webhooks view in Chromium, against the real API, the worker's webhook side, Postgres, Redis and a
// loopback receiver answering 200. The tests run in order and build on each other.

const suite = browserSuite({ webhooks: true });
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let admin: Page;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  admin = await (await suite.profile()).newPage();
}, 180_000);

afterAll(async () => {
  await receiver?.close();
});

async function expectAccessible(page: Page) {
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
}

describe('webhooks in Chromium', { timeout: 60_000 }, () => {
  it('registers an endpoint; its secret is shown once', async () => {
    await signInAt(admin, suite.stack.origin, suite.stack.admin);
    await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
    await admin.getByText('No endpoints yet. Register the first one above.').waitFor();
    await expectAccessible(admin);

    await admin.getByLabel('URL', { exact: true }).fill(receiver.url('/newsroom'));
    await admin.getByRole('button', { name: 'Register endpoint' }).click();
    await admin.getByRole('heading', { name: 'Copy the signing secret now' }).waitFor();
    const secret = await admin.getByRole('textbox', { name: 'Signing secret' }).inputValue();
    expect(secret).toMatch(/^whsec_/);
    await expectAccessible(admin);
    await admin.getByRole('button', { name: 'I have stored the secret' }).click();
    await admin.getByRole('textbox', { name: 'Signing secret' }).waitFor({ state: 'detached' });
    expect(await admin.content()).not.toContain(secret);
  });

  it('delivers a published article to the receiver and shows it in the log; sends it again', async () => {
    await insertArticle(suite.stack.db, {
      title: 'Harbour bridge reopens',
      slug: 'harbour-bridge-reopens',
      body: '<p>Traffic is back.</p>',
      tags: ['traffic'],
      status: 'published',
      published_at: new Date(),
    });
    await vi.waitFor(() => expect(receiver.received('/newsroom')).toHaveLength(1), {
      timeout: 15_000,
      interval: 100,
    });
    const eventId = receiver.received('/newsroom')[0]?.headers['webhook-id'] ?? '';
    expect(eventId).toMatch(/^evt_/);

    await admin.getByRole('button', { name: `Delivery log of ${receiver.url('/newsroom')}` }).click();
    const row = admin.getByRole('row').filter({ hasText: eventId });
    await row.getByText('delivered').waitFor({ timeout: 15_000 });
    expect(await row.textContent()).toContain('article.published');
    expect(await row.textContent()).toMatch(/200 · \d+ ms/);
    await expectAccessible(admin);
    await admin.getByRole('button', { name: 'Close notification' }).click();
    await admin.locator('.toast').waitFor({ state: 'detached' });
    await screenshots(admin, 'webhooks');

    await row.getByRole('button', { name: `Send again article.published ${eventId}` }).click();
    await vi.waitFor(() => expect(receiver.received('/newsroom')).toHaveLength(2), {
      timeout: 15_000,
      interval: 100,
    });
    expect(receiver.received('/newsroom')[1]?.headers['webhook-id']).toBe(eventId);
    await row.getByText('delivered').waitFor({ timeout: 15_000 });
  });

  it('sent no request to another host', () => {
    expect(suite.offsite).toEqual([]);
  });
});
