// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  type Actor,
  type ArticleScope,
  isAllowed,
  type PolicyTarget,
  rolesOf,
} from '../../../packages/domain/src/policy/policy';
import { policyTable } from '../../../packages/domain/src/policy/policy-table';
import { type PolicySubject, type PolicyViewer, policyAllows } from '../src/lib/policy';

// The dashboard's reading of the policy (src/lib/policy.ts, over the rows GET /auth/permissions gives) must
// answer as the domain's (packages/domain/src/policy/policy.ts, what the API's guards run) for every operation
// of the table, every staff role and grant shape, and every kind of target: a control is shown exactly when
// the API would accept its request.

type SiteRole = 'editor' | 'contributor' | 'reviewer';
const me = 'user-me';
const other = 'user-other';
const sites = ['site-a', 'site-b'];

/** The viewer the dashboard builds: the permissions answer (rows filtered as the route does) and the id. */
function viewerOf(actor: Actor): PolicyViewer {
  const roles = rolesOf(actor);
  return {
    userId: actor.id,
    role: actor.role,
    everything: actor.role === 'admin',
    // Sites are named by slug in the browser: here a site's id is its slug.
    grants: actor.grants.map((grant) => ({ siteSlug: grant.siteId, role: grant.role })),
    rows: policyTable
      .filter(([, caller]) => caller === 'signed-in' || roles.has(caller as never))
      .map(([operationId, caller, scope]) => ({ operationId, caller, scope })),
  };
}

const actors: Actor[] = [];
for (const role of ['editor', 'contributor', 'reviewer'] as const) {
  const grantShapes: { siteId: string; role: SiteRole }[][] = [
    [],
    [{ siteId: 'site-a', role }],
    [
      { siteId: 'site-a', role: 'editor' },
      { siteId: 'site-b', role: 'contributor' },
    ],
    [{ siteId: 'site-a', role: 'reviewer' }],
  ];
  for (const grants of grantShapes) actors.push({ id: me, role, grants });
}

const articles: ArticleScope[] = [];
for (const siteIds of [[], ['site-a'], ['site-b'], ['site-a', 'site-b']])
  for (const createdBy of [me, other, null])
    for (const status of ['draft', 'pending', 'published', 'rejected'] as const)
      articles.push({ siteIds, createdBy, status });

const asSubject = (article: ArticleScope) => ({
  hostSites: article.siteIds,
  createdBy: article.createdBy,
  status: article.status,
});

const targets: [PolicyTarget, PolicySubject][] = [
  [{ kind: 'none' }, { kind: 'none' }],
  ...sites.map((siteId): [PolicyTarget, PolicySubject] => [
    { kind: 'site', siteId },
    { kind: 'site', siteSlug: siteId },
  ]),
  ...articles.map((article): [PolicyTarget, PolicySubject] => [
    { kind: 'article', article },
    { kind: 'article', article: asSubject(article) },
  ]),
  ...articles.map((article): [PolicyTarget, PolicySubject] => [
    { kind: 'named-articles', articles: [article], named: 1 },
    { kind: 'named-articles', articles: [asSubject(article)] },
  ]),
];

describe("the dashboard's reading of the policy", () => {
  it('answers as the domain for every operation, staff role, grants and target', () => {
    const operations = [...new Set(policyTable.map(([id]) => id)), 'anOperationWithoutRows'];
    const mismatches: string[] = [];
    let allowed = 0;
    let checked = 0;
    for (const actor of actors) {
      const viewer = viewerOf(actor);
      for (const operationId of operations)
        for (const [target, subject] of targets)
          for (const hostSites of [undefined, [], ['site-a'], ['site-b'], ['site-a', 'site-b']]) {
            const domain = isAllowed(actor, operationId, target, hostSites);
            const browser = policyAllows(viewer, operationId, subject, hostSites);
            checked += 1;
            if (domain) allowed += 1;
            if (domain !== browser)
              mismatches.push(
                `${operationId} ${actor.role} ${JSON.stringify(actor.grants)} ${JSON.stringify(target)} ${hostSites}`,
              );
          }
    }
    expect(mismatches.slice(0, 10)).toEqual([]);
    expect(allowed).toBeGreaterThan(1000);
    expect(checked).toBeGreaterThan(100_000);
  });

  it('allows an administrator everything', () => {
    const admin = viewerOf({ id: me, role: 'admin', grants: [] });
    expect(policyAllows(admin, 'deleteUser')).toBe(true);
    expect(policyAllows(admin, 'publishArticle', { kind: 'none' })).toBe(true);
  });
});
