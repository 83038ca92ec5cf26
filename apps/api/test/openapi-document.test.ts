import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { createMetricsRegistry } from '@newsroom/metrics';
import { afterAll, describe, expect, it } from 'vitest';
import { createUploadSigner } from '../src/storage/upload-signer';
import { createTestApp } from './support/test-app';

/**
 * The OpenAPI document as generated clients read it (docs/openapi.md): every operation named and secured,
 * a server, defaulted query parameters optional, and Redocly's recommended ruleset without errors (run
 * offline from node_modules on the document written to a temporary file).
 */
interface Operation {
  operationId?: string;
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ in: string; name: string; required?: boolean; schema?: { default?: unknown } }>;
  responses?: Record<
    string,
    {
      headers?: Record<string, unknown>;
      content?: Record<string, { schema?: { $ref?: string }; example?: unknown }>;
    }
  >;
}
interface Document {
  servers?: Array<{ url: string }>;
  components?: { schemas?: Record<string, unknown> };
  paths: Record<string, Record<string, Operation>>;
}

const root = resolve(import.meta.dirname, '../../..');
const testApp = await createTestApp();
const tempDir = mkdtempSync(join(tmpdir(), 'openapi-document-'));
afterAll(async () => {
  await testApp.close();
  rmSync(tempDir, { recursive: true, force: true });
});

const response = await testApp.app.inject({ method: 'GET', url: '/docs/json' });
const document = response.json() as Document;
const operations = Object.entries(document.paths).flatMap(([path, pathItem]) =>
  Object.entries(pathItem).map(([method, operation]) => ({
    name: `${method.toUpperCase()} ${path}`,
    operation,
  })),
);

describe('the OpenAPI document', () => {
  it('is served and lists the operations', () => {
    expect(response.statusCode).toBe(200);
    expect(operations.length).toBeGreaterThan(40);
  });

  it('names every operation with a unique, camelCase, verb-first operationId', () => {
    expect(operations.filter(({ operation }) => !operation.operationId).map(({ name }) => name)).toEqual([]);
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
    expect(ids.filter((id) => !/^[a-z]+[A-Z][A-Za-z]*$/.test(id ?? ''))).toEqual([]);
  });

  it('gives every operation a security requirement, explicitly empty on public ones', () => {
    expect(operations.filter(({ operation }) => !operation.security).map(({ name }) => name)).toEqual([]);
    const securityOf = (name: string) =>
      operations.find((operation) => operation.name === name)?.operation.security;
    for (const publicOperation of [
      'GET /health',
      'GET /ready',
      'POST /api/v1/auth/login',
      'POST /api/v1/auth/session',
      'GET /api/v1/client/preview/{token}',
    ]) {
      expect(securityOf(publicOperation), publicOperation).toEqual([]);
    }
    expect(securityOf('GET /api/v1/client/posts')).toEqual([{ apiKeyHeader: [] }, { apiKeyQuery: [] }]);
    expect(securityOf('GET /api/v1/article')).toEqual([{ bearerAuth: [] }, { sessionCookie: [] }]);
    expect(securityOf('GET /api/v1/auth/session')).toEqual([{ sessionCookie: [] }]);
  });

  it('names the error body once, as the Error component every error response refers to', () => {
    expect(document.components?.schemas?.Error).toMatchObject({ required: expect.arrayContaining(['code']) });
    const inlineErrors = operations.flatMap(({ name, operation }) =>
      Object.entries(operation.responses ?? {})
        .filter(([status]) => Number(status) >= 400)
        .filter(
          ([, answer]) => answer.content?.['application/json']?.schema?.$ref !== '#/components/schemas/Error',
        )
        .map(([status]) => `${name} ${status}`),
    );
    // Not ready answers its checks (which dependency is down), not an error body.
    expect(inlineErrors).toEqual(['GET /ready 503']);
  });

  it('names the client shapes as components and every titled schema once (no anonymous copies)', () => {
    const schemaOf = (name: string, status: string) =>
      operations.find((operation) => operation.name === name)?.operation.responses?.[status]?.content?.[
        'application/json'
      ]?.schema;
    expect(schemaOf('GET /api/v1/client/posts', '200')).toEqual({
      $ref: '#/components/schemas/ClientArticlePage',
    });
    // The whole article, or with fields= the fields named.
    expect(schemaOf('GET /api/v1/client/article/{slug}', '200')).toEqual({
      anyOf: [
        { $ref: '#/components/schemas/ClientArticle' },
        { $ref: '#/components/schemas/ClientArticleFields' },
      ],
    });
    expect(document.components?.schemas).toHaveProperty('Pagination');
    // A title left inline means two different shapes share it.
    expect(JSON.stringify(document.paths).match(/"title":"[A-Z]\w*"/g)).toBeNull();
  });

  it('gives the client operations examples, and documents ETag, Retry-After and RateLimit headers', () => {
    const client = operations.filter(({ name }) => name.startsWith('GET /api/v1/client/'));
    expect(client.length).toBeGreaterThanOrEqual(8);
    for (const { name, operation } of client) {
      const ok = operation.responses?.['200'];
      const example = Object.values(ok?.content ?? {})[0]?.example;
      expect(example, name).toBeDefined();
      expect(ok?.headers, name).toHaveProperty('ETag');
      expect(operation.responses?.['304']?.headers, name).toHaveProperty('ETag');
      expect(operation.responses?.['429']?.headers, name).toHaveProperty('RateLimit-Reset');
      // The preview (the token is the secret) is the one keyless client read: it never answers 401.
      if (operation.security?.length === 0) continue;
      expect(operation.responses?.['401']?.content?.['application/json']?.example, name).toMatchObject({
        code: 'INVALID_API_KEY',
      });
    }
    const tooMany = operations.flatMap(({ name, operation }) =>
      Object.entries(operation.responses ?? {})
        .filter(([status]) => status === '429' || status === '503')
        .map(([status, answer]) => ({
          where: `${name} ${status}`,
          headers: Object.keys(answer.headers ?? {}),
        })),
    );
    expect(tooMany.length).toBeGreaterThan(10);
    // The readiness probe's 503 is its report, not a refusal: no Retry-After.
    expect(
      tooMany.filter(({ headers }) => !headers.includes('Retry-After')).map(({ where }) => where),
    ).toEqual(['GET /ready 503']);
  });

  it('has a server', () => {
    expect(document.servers?.length).toBeGreaterThan(0);
  });

  it('marks no query parameter with a default as required', () => {
    const defaulted = operations.flatMap(({ name, operation }) =>
      (operation.parameters ?? [])
        .filter((parameter) => parameter.in === 'query' && parameter.schema?.default !== undefined)
        .map((parameter) => ({ name, parameter: parameter.name, required: parameter.required ?? false })),
    );
    expect(defaulted.map(({ parameter }) => parameter)).toContain('page');
    expect(defaulted.filter(({ required }) => required)).toEqual([]);
  });
});

/** Redocly's recommended ruleset, run offline from node_modules; the error-level problems it reports. */
async function redoclyErrors(document: string): Promise<string[]> {
  const file = join(tempDir, `openapi-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, document);
  const { stdout } = await promisify(execFile)(
    join(root, 'node_modules/.bin/redocly'),
    ['lint', '--extends=recommended', '--format=json', file],
    {
      timeout: 60_000,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    },
  ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  const report = JSON.parse(stdout) as {
    totals: { errors: number };
    problems: Array<{
      ruleId: string;
      severity: string;
      message: string;
      location: Array<{ pointer: string }>;
    }>;
  };
  const errors = report.problems
    .filter((problem) => problem.severity === 'error')
    .map((problem) => `${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer}`);
  if (report.totals.errors > errors.length) errors.push(`${report.totals.errors} errors in all`);
  return errors;
}

// Every configuration that changes the document: the metrics route exists only with METRICS_TOKEN, and the
// upload signer may be configured or not.
const storage = createUploadSigner({
  accessKeyId: 'test',
  secretAccessKey: 'test',
  region: 'us-east-1',
  bucket: 'uploads',
  endpoint: 'http://127.0.0.1:9',
  publicUrl: undefined,
});
const configurations = [
  { name: 'metrics off, storage off', metrics: false, storage: false },
  { name: 'metrics on, storage off', metrics: true, storage: false },
  { name: 'metrics off, storage on', metrics: false, storage: true },
  { name: 'metrics on, storage on', metrics: true, storage: true },
];

describe.each(configurations)('the OpenAPI document with $name', (configuration) => {
  it('passes redocly lint with the recommended ruleset without errors', async () => {
    const configured = await createTestApp({
      env: configuration.metrics ? { METRICS_TOKEN: 'm'.repeat(32) } : {},
      ...(configuration.metrics && { metricsRegistry: createMetricsRegistry() }),
      ...(configuration.storage && { storage }),
    });
    try {
      const served = await configured.app.inject({ method: 'GET', url: '/docs/json' });
      const document = served.json() as Document;
      expect(Boolean(document.paths['/metrics']), 'the /metrics route').toBe(configuration.metrics);
      if (configuration.metrics) {
        expect(document.paths['/metrics']?.get).toMatchObject({
          operationId: 'getMetrics',
          security: [{ metricsToken: [] }],
        });
      }
      expect(await redoclyErrors(served.body)).toEqual([]);
    } finally {
      await configured.close();
    }
  }, 90_000);
});
