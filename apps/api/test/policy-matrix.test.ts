import { randomBytes } from 'node:crypto';
import {
  type ArticleScope,
  isAllowed,
  mayCall,
  type PolicyActor,
  type PolicyTarget,
  policyRowsOf,
  policyTable,
  type SiteRole,
} from '@newsroom/domain';
import { afterAll, describe, expect, it } from 'vitest';
import { createUploadSigner } from '../src/storage/upload-signer';
import { insertArticle, insertSite } from './support/content-fixtures';
import { insertAdmin, insertPublisher } from './support/dashboard-accounts';
import { type OpenApiDocument, type Operation, operationsOf } from './support/fuzz/openapi-operations';
import { grant, insertScheduled, insertStaff, setCreatedBy } from './support/policy/staff-fixtures';
import { validValue } from './support/policy/valid-values';
import { createTestApp } from './support/test-app';

/**
 * The policy matrix (docs/permissions.md): every operation of the OpenAPI document, called as every role
 * (anonymous, publisher, reviewer, contributor, editor, administrator), on a target in the role's scope and one
 * out of it, must be refused (401 UNAUTHORIZED / 403 FORBIDDEN) exactly when the policy table says so. Requests
 * are built from the document's schemas (valid, plain values); each operation gets a fresh small world (two
 * sites, grants on the first, articles on both), so a DELETE cannot starve the next operation.
 */
const storage = createUploadSigner({
  accessKeyId: 'key',
  secretAccessKey: 'secret',
  region: 'us-east-1',
  bucket: 'media',
  endpoint: 'http://127.0.0.1:9',
  publicUrl: undefined,
});
const testApp = await createTestApp({ storage });
const { app, db } = testApp;
afterAll(testApp.close);

const document = (await app.inject('/docs/json')).json() as OpenApiDocument & {
  paths: Record<string, Record<string, { operationId?: string; 'x-permissions'?: unknown }>>;
};
const operations = operationsOf(document);
const operationIdOf = (operation: Operation) =>
  document.paths[operation.path]?.[operation.method.toLowerCase()]?.operationId ?? '';

const admin = await insertAdmin(app, db);
const publisher = await insertPublisher(app, db, { approved: true });
const editor = await insertStaff(app, db, 'editor');
const contributor = await insertStaff(app, db, 'contributor');
const reviewer = await insertStaff(app, db, 'reviewer');

type Who = 'anonymous' | 'publisher' | 'reviewer' | 'contributor' | 'editor' | 'admin';
// The administrator last: what it may do (delete the article) must not change what the others are refused.
const everyone: Who[] = ['anonymous', 'publisher', 'reviewer', 'contributor', 'editor', 'admin'];
const tokens: Record<Who, string | undefined> = {
  anonymous: undefined,
  publisher: publisher.token,
  reviewer: reviewer.token,
  contributor: contributor.token,
  editor: editor.token,
  admin: admin.token,
};
const staffGrants: Partial<Record<Who, SiteRole>> = {
  editor: 'editor',
  contributor: 'contributor',
  reviewer: 'reviewer',
};

let worldCount = 0;

/** Two sites (grants on A only), and per role an article in its scope (on A) and one out of it (on B). */
async function createWorld() {
  worldCount += 1;
  const siteA = { slug: `matrix-a-${worldCount}`, id: '' };
  const siteB = { slug: `matrix-b-${worldCount}`, id: '' };
  siteA.id = await insertSite(db, siteA.slug);
  siteB.id = await insertSite(db, siteB.slug);
  for (const [who, role] of Object.entries(staffGrants)) {
    const user = { editor, contributor, reviewer }[who as 'editor'];
    await db.deleteFrom('user_site_grants').where('user_id', '=', user.id).execute();
    await grant(db, user.id, siteA.id, role);
  }
  // The contributor's own draft on A (in scope of the editor and the contributor), an admin's draft on B, and
  // pending articles on A and B (the reviewer's in and out).
  const ownDraft = await insertArticle(db, { status: 'draft', siteIds: [siteA.id] });
  await setCreatedBy(db, ownDraft.id, contributor.id);
  const otherDraft = await insertArticle(db, { status: 'draft', siteIds: [siteB.id] });
  await setCreatedBy(db, otherDraft.id, admin.id);
  const pendingA = await insertArticle(db, { status: 'pending', siteIds: [siteA.id] });
  const pendingB = await insertArticle(db, { status: 'pending', siteIds: [siteB.id] });
  const victim = await insertStaff(app, db, 'editor');
  // What /publisher/{id} acts on (approve, disable, delete): not the publisher whose login the matrix uses.
  const victimPublisher = await insertPublisher(app, db, { approved: true });
  // A scheduled action and a release per article (what /scheduled-actions/{id} and /releases/{id} act on).
  const scheduled = new Map<string, { actionId: string; releaseId: string }>();
  for (const article of [ownDraft, otherDraft, pendingA, pendingB])
    scheduled.set(article.id, await insertScheduled(db, article.id));
  return { siteA, siteB, ownDraft, otherDraft, pendingA, pendingB, victim, victimPublisher, scheduled };
}
type World = Awaited<ReturnType<typeof createWorld>>;

function actorOf(who: Who, world: World): PolicyActor | undefined {
  if (who === 'anonymous') return undefined;
  if (who === 'admin') return { id: admin.id, role: 'admin', grants: [] };
  if (who === 'publisher') return { id: publisher.id, role: 'publisher', grants: [] };
  const user = { editor, contributor, reviewer }[who];
  return { id: user.id, role: who, grants: [{ siteId: world.siteA.id, role: staffGrants[who] as SiteRole }] };
}

/** The article (and its scope as the policy sees it) a role's request points at, in or out of its scope. */
function articleFor(who: Who, inScope: boolean, world: World): { id: string; scope: ArticleScope } {
  if (who === 'reviewer') {
    const article = inScope ? world.pendingA : world.pendingB;
    const site = inScope ? world.siteA : world.siteB;
    return { id: article.id, scope: { siteIds: [site.id], createdBy: null, status: 'pending' } };
  }
  if (inScope)
    return {
      id: world.ownDraft.id,
      scope: { siteIds: [world.siteA.id], createdBy: contributor.id, status: 'draft' },
    };
  return {
    id: world.otherDraft.id,
    scope: { siteIds: [world.siteB.id], createdBy: admin.id, status: 'draft' },
  };
}

/** Builds the request and the policy's view of its target. */
function requestFor(operation: Operation, who: Who, inScope: boolean, world: World) {
  const article = articleFor(who, inScope, world);
  const site = inScope ? world.siteA : world.siteB;
  const area = operation.path.split('/')[3];
  const scheduled = world.scheduled.get(article.id);
  const idTarget: { id: string; target: PolicyTarget } =
    area === 'article'
      ? { id: article.id, target: { kind: 'article', article: article.scope } }
      : (area === 'scheduled-actions' || area === 'releases') &&
          scheduled &&
          operation.pathParams.some((parameter) => parameter.name === 'id')
        ? {
            id: area === 'releases' ? scheduled.releaseId : scheduled.actionId,
            target: { kind: 'named-articles', articles: [article.scope], named: 1 },
          }
        : area === 'site'
          ? { id: site.id, target: { kind: 'site', siteId: site.id } }
          : area === 'users'
            ? { id: world.victim.id, target: { kind: 'none' } }
            : area === 'publisher'
              ? { id: world.victimPublisher.publisherId, target: { kind: 'none' } }
              : { id: world.siteA.id, target: { kind: 'none' } };
  const hints = new Map<string, () => unknown>([
    ['id', () => idTarget.id],
    ['articleId', () => article.id],
    ['hostSites', () => [site.slug]],
    ['slug', () => `matrix-${randomBytes(4).toString('hex')}`],
    ['token', () => randomBytes(32).toString('base64url')],
    ['password', () => 'a long enough password'],
    ['newPassword', () => 'a long enough password 2'],
    ['currentPassword', () => 'not the password at all'],
  ]);
  let url = operation.path;
  for (const parameter of operation.pathParams)
    url = url.replace(
      `{${parameter.name}}`,
      encodeURIComponent(String(validValue(parameter.schema, hints, parameter.name))),
    );
  const query = operation.query
    .filter((parameter) => parameter.required)
    .map(
      (parameter) =>
        `${parameter.name}=${encodeURIComponent(String(validValue(parameter.schema, hints, parameter.name)))}`,
    );
  if (query.length) url += `?${query.join('&')}`;
  const body = operation.body ? validValue(operation.body, hints) : undefined;
  // The sites the body names (the guard reads them as ids); undefined when it names none.
  const hostSiteIds =
    body && typeof body === 'object' && 'hostSites' in body
      ? (body as { hostSites: string[] }).hostSites.length
        ? [site.id]
        : []
      : undefined;
  // Scheduling names its article in the body (`articleId`, `actions[].articleId`), not the path.
  const namesArticles = body && typeof body === 'object' && ('articleId' in body || 'actions' in body);
  const target: PolicyTarget = namesArticles
    ? { kind: 'named-articles', articles: [article.scope], named: 1 }
    : idTarget.target;
  return { url, body, target, hostSiteIds };
}

const bearerless = new Set(['site-key', 'metrics-token', 'session-cookie']);

/** The policy's answer for one call (the matrix's expectation). */
function policyAllows(
  operationId: string,
  actor: PolicyActor | undefined,
  target: PolicyTarget,
  hostSiteIds: string[] | undefined,
) {
  const rows = policyRowsOf(operationId);
  if (rows.some(([, caller]) => caller === 'anonymous')) return true;
  // Operations for credentials a dashboard bearer token is not (an API key, the metrics token, the cookie).
  if (rows.length > 0 && rows.every(([, caller]) => bearerless.has(caller))) return false;
  if (!actor) return false;
  return isAllowed(actor, operationId, target, hostSiteIds);
}

/**
 * A refusal: 401 UNAUTHORIZED, 403 FORBIDDEN; on the client API (API key) its own 401 INVALID_API_KEY, and the
 * 429 of the failed-key limiter that follows repeated ones (an answer a dashboard credential also gets there).
 */
const isRefusal = (operationId: string, status: number, code: unknown) =>
  (status === 401 && (code === 'UNAUTHORIZED' || code === 'INVALID_API_KEY')) ||
  (status === 403 && code === 'FORBIDDEN') ||
  (status === 429 &&
    code === 'RATE_LIMITED' &&
    policyRowsOf(operationId).every(([, caller]) => caller === 'site-key'));

describe('the policy table and the OpenAPI document', () => {
  it('has a row for every operation of the document (an operation without one is for administrators only)', () => {
    const missing = operations.map(operationIdOf).filter((id) => policyRowsOf(id).length === 0);
    expect(
      missing,
      `operations missing from packages/domain/src/policy/policy-table.ts: ${missing.join(', ')}`,
    ).toEqual([]);
  });

  it('names only operations that exist (getMetrics exists only with METRICS_TOKEN)', () => {
    const documented = new Set(operations.map(operationIdOf));
    const stale = [...new Set(policyTable.map(([id]) => id))].filter(
      (id) => !documented.has(id) && id !== 'getMetrics',
    );
    expect(stale).toEqual([]);
  });

  it('publishes each operation’s rows as x-permissions', () => {
    for (const operation of operations) {
      const id = operationIdOf(operation);
      const published = document.paths[operation.path]?.[operation.method.toLowerCase()]?.['x-permissions'];
      expect(published, id).toEqual(policyRowsOf(id).map(([, caller, scope]) => ({ caller, scope })));
    }
  });
});

describe('the policy matrix: every operation × role × in/out of scope', () => {
  it('refuses exactly what the policy refuses: zero mismatches', { timeout: 120_000 }, async () => {
    const mismatches: string[] = [];
    let calls = 0;
    let allowedInScope = 0;
    let refusedByScope = 0;
    for (const operation of operations) {
      const operationId = operationIdOf(operation);
      const world = await createWorld();
      for (const who of everyone) {
        for (const inScope of [false, true]) {
          const { url, body, target, hostSiteIds } = requestFor(operation, who, inScope, world);
          const expected = policyAllows(operationId, actorOf(who, world), target, hostSiteIds);
          const token = tokens[who];
          const response = await app.inject({
            method: operation.method,
            url,
            headers: token ? { authorization: `Bearer ${token}` } : {},
            ...(body !== undefined ? { payload: body as object } : {}),
          });
          calls += 1;
          const code = response.headers['content-type']?.includes('application/json')
            ? response.json().code
            : undefined;
          const refused = isRefusal(operationId, response.statusCode, code);
          if (refused === expected)
            mismatches.push(
              `${operationId} as ${who} ${inScope ? 'in' : 'out of'} scope: policy ${expected ? 'allows' : 'refuses'}, API answered ${response.statusCode} ${code ?? ''}`,
            );
          if (expected && inScope && who !== 'admin' && who !== 'anonymous') allowedInScope += 1;
          const actor = actorOf(who, world);
          if (!expected && actor && mayCall(actor, operationId)) refusedByScope += 1;
        }
      }
    }
    console.info(
      `policy matrix: ${operations.length} operations, ${calls} calls, ${mismatches.length} mismatches`,
    );
    expect(mismatches).toEqual([]);
    // Not vacuous: staff roles are allowed somewhere in their scope.
    expect(allowedInScope).toBeGreaterThan(30);
    // ...and refused out of it by the scope (their role may call the operation elsewhere).
    expect(refusedByScope).toBeGreaterThan(20);
  });
});
