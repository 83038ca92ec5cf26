import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ApiError, type FieldIssue } from '../src/lib/api-error';
import { refusalOf } from '../src/lib/form/request-error';
import type { RequestSchemaName } from '../src/lib/form/request-schemas.generated';
import { humanizeIssue } from '../src/lib/validation-words';
import { password, setUpDashboardApi } from './support/dashboard-test-app';

// The browser's check of a form's body (src/lib/form/validate-body.ts, against the schemas generated from the
// OpenAPI document) must say what the API's own validation says: each body below is sent to the real API as
// well, and the message a person reads at each field is compared.

const api = await setUpDashboardApi();

type Case = [RequestSchemaName, 'POST' | 'PUT', string, unknown];
const someId = randomUUID();
const cases: Case[] = [
  ['signIn', 'POST', '/api/v1/auth/session', { email: '', password: '' }],
  ['changePassword', 'PUT', '/api/v1/auth/password', { currentPassword: '', newPassword: 'x'.repeat(1025) }],
  ['createPublisher', 'POST', '/api/v1/publisher', { name: '', email: 'not-an-address', password: 'short' }],
  ['createPublisher', 'POST', '/api/v1/publisher', { name: ' ', email: 'a@b.c', password: 'x'.repeat(73) }],
  ['createPublisher', 'POST', '/api/v1/publisher', { name: 'Nul\u0000', email: 'a@b.c' }],
  ['updatePublisher', 'PUT', `/api/v1/publisher/${someId}`, {}],
  ['updatePublisher', 'PUT', `/api/v1/publisher/${someId}`, { defaultTags: ['x'.repeat(61)] }],
  [
    'updatePublisher',
    'PUT',
    `/api/v1/publisher/${someId}`,
    { importRules: { includeKeywords: Array(201).fill('k'), defaultCategory: 'c'.repeat(201) } },
  ],
  ['resetPassword', 'PUT', `/api/v1/publisher/${someId}/password`, { password: '' }],
  ['createSite', 'POST', '/api/v1/site', { name: '', slug: 'Bad Slug', domain: 'not a domain' }],
  ['createSite', 'POST', '/api/v1/site', { name: 'n'.repeat(101), slug: 's'.repeat(64), domain: null }],
  [
    'editSite',
    'PUT',
    `/api/v1/site/${someId}`,
    { name: 'Metro', language: '', articleUrlTemplate: 'x'.repeat(3000), publicBaseUrl: null },
  ],
  ['createWebhook', 'POST', '/api/v1/webhooks', { url: '', events: [], site: null, enabled: true }],
  ['createWebhook', 'POST', '/api/v1/webhooks', { url: 'https://a.example', events: ['nope'], site: null }],
  ['editWebhook', 'PUT', `/api/v1/webhooks/${someId}`, { events: [], site: 'x'.repeat(200), enabled: true }],
];

/** Per field path, the first message in words: what the form shows next to the field. */
function inWords(issues: readonly FieldIssue[]): Record<string, string> {
  const shown: Record<string, string> = {};
  for (const issue of issues) {
    const required = /required property '([^']+)'/.exec(issue.message)?.[1];
    const path = required ? `${issue.path}/${required}` : issue.path;
    const field = path.split('/').pop() ?? path;
    shown[path] ??= humanizeIssue(issue.message, field);
  }
  return shown;
}

async function signedInAdmin() {
  const admin = await api.insertAdmin();
  const response = await api.api().fetch('/api/v1/auth/session', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: admin.email, password }),
  });
  return ((await response.json()) as { csrfToken: string }).csrfToken;
}

describe("the browser's check of a form's body", () => {
  it.each(cases)('says what the API says: %s %s %s', async (schema, method, url, body) => {
    const csrf = await signedInAdmin();
    const response = await api.api().fetch(url, {
      method,
      headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
      body: JSON.stringify(body),
    });
    const server = ApiError.fromResponse(response.status, await response.json());
    expect(server.code).toBe('VALIDATION_ERROR');
    const browser = refusalOf(schema, body);
    expect(browser?.code).toBe('VALIDATION_ERROR');
    expect(inWords(browser?.details ?? [])).toEqual(inWords(server.details));
  });

  it('lets through what the API accepts', () => {
    expect(
      refusalOf('createPublisher', { name: 'Bugle', email: 'desk@bugle.example', password: 'x'.repeat(12) }),
    ).toBeNull();
    expect(refusalOf('saveFeed', { feedUrl: null, defaultTags: [] })).toBeNull();
    expect(
      refusalOf('editWebhook', { events: ['article.published'], site: null, enabled: false }),
    ).toBeNull();
    // A pair of UTF-16 halves is one character, as Ajv counts them.
    expect(refusalOf('createSite', { name: '😀'.repeat(100), slug: 'emoji', domain: null })).toBeNull();
  });

  it('names the request as the API does, and an unknown property at its own path', () => {
    const refusal = refusalOf('signIn', { email: 'a@b.c', password: 'x', extra: 1 });
    expect(refusal?.status).toBe(400);
    expect(refusal?.details).toEqual([{ path: 'body/extra', message: 'unknown property "extra"' }]);
    expect(refusal?.message).toBe('Invalid body: body/extra unknown property "extra"');
  });
});
