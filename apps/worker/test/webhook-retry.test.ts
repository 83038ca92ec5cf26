import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { judgeAttempt } from '../src/webhooks/deliver-webhook.job';
import { maxWebhookRetryDelayMs, webhookRetryDelayMs } from '../src/webhooks/webhook-retry-delay';
import { signWebhook } from '../src/webhooks/webhook-signature';

const settings = { maxAttempts: 8, retryBaseMs: 30_000, disableAfterMs: 3 * 86_400_000, timeoutMs: 5_000 };
const now = new Date('2026-11-23T12:00:00Z');
const deps = { settings, now: () => now };
const answered = (statusCode: number, retryAfterMs?: number) => ({
  answered: true as const,
  statusCode,
  retryAfterMs,
  durationMs: 12,
  excerpt: '',
});

describe('webhook retry delay', () => {
  it('grows x4 from the base with ±20% jitter, and spans about a day over 8 attempts', () => {
    expect(webhookRetryDelayMs(1, 30_000, undefined, () => 0.5)).toBe(30_000);
    expect(webhookRetryDelayMs(2, 30_000, undefined, () => 0.5)).toBe(120_000);
    expect(webhookRetryDelayMs(3, 30_000, undefined, () => 0)).toBe(384_000);
    expect(webhookRetryDelayMs(3, 30_000, undefined, () => 1)).toBe(576_000);
    let total = 0;
    for (let retry = 1; retry < 8; retry++) total += webhookRetryDelayMs(retry, 30_000, undefined, () => 0.5);
    expect(total / 3_600_000).toBeGreaterThan(20);
    expect(total / 3_600_000).toBeLessThan(28);
  });

  it('waits at least what Retry-After asks, at most 12 hours', () => {
    expect(webhookRetryDelayMs(1, 30_000, 600_000, () => 0.5)).toBe(600_000);
    expect(webhookRetryDelayMs(1, 30_000, 86_400_000, () => 0.5)).toBe(maxWebhookRetryDelayMs);
    expect(webhookRetryDelayMs(20, 30_000, undefined, () => 0.5)).toBe(maxWebhookRetryDelayMs);
  });
});

describe('judging an attempt', () => {
  const first = { attempts: 0, attemptLimit: null };
  it('delivers on 2xx, retries network errors, timeouts, 408, 429 and 5xx', () => {
    expect(judgeAttempt(answered(204), first, deps).outcome.kind).toBe('delivered');
    for (const status of [408, 429, 500, 502, 503]) {
      expect(judgeAttempt(answered(status), first, deps).outcome.kind, String(status)).toBe('retry');
    }
    for (const code of ['TIMEOUT', 'NETWORK'] as const) {
      const result = judgeAttempt({ answered: false, code, error: 'x', durationMs: 1 }, first, deps);
      expect(result.outcome.kind).toBe('retry');
    }
  });

  it('gives up on other 4xx, redirects and refused addresses; 410 is gone', () => {
    for (const status of [400, 401, 404, 422, 301]) {
      expect(judgeAttempt(answered(status), first, deps).outcome.kind, String(status)).toBe('failed');
    }
    expect(judgeAttempt(answered(302), first, deps).error).toBe('HTTP 302 (redirects are not followed)');
    expect(judgeAttempt(answered(410), first, deps).outcome.kind).toBe('gone');
    const refused = { answered: false as const, code: 'REFUSED_ADDRESS' as const, error: 'x', durationMs: 1 };
    expect(judgeAttempt(refused, first, deps).outcome.kind).toBe('failed');
  });

  it('honours Retry-After and stops at the attempt limit (a resend allows one)', () => {
    const result = judgeAttempt(answered(429, 3_600_000), first, deps);
    expect(result.outcome).toEqual({ kind: 'retry', nextAttemptAt: new Date(now.getTime() + 3_600_000) });
    expect(judgeAttempt(answered(500), { attempts: 7, attemptLimit: null }, deps).outcome.kind).toBe(
      'failed',
    );
    expect(judgeAttempt(answered(500), { attempts: 3, attemptLimit: 4 }, deps).outcome.kind).toBe('failed');
  });
});

describe('signature', () => {
  it('is one v1 signature per secret, each verifiable with standardwebhooks', () => {
    const secrets = [
      `whsec_${Buffer.alloc(32, 7).toString('base64')}`,
      `whsec_${Buffer.alloc(24, 9).toString('base64')}`,
    ];
    const body = '{"id":"evt_1","type":"article.published"}';
    const timestamp = Math.floor(Date.now() / 1000);
    const header = signWebhook(secrets, 'evt_1', timestamp, body);
    expect(header).toMatch(/^v1,[A-Za-z0-9+/]+=* v1,[A-Za-z0-9+/]+=*$/);
    const headers = {
      'webhook-id': 'evt_1',
      'webhook-timestamp': String(timestamp),
      'webhook-signature': header,
    };
    for (const secret of secrets) expect(() => new Webhook(secret).verify(body, headers)).not.toThrow();
  });
});
