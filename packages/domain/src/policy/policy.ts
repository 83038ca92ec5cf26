import type { ArticleStatus, SiteRole, UserRole } from '../db/tables';
import { type PolicyCaller, type PolicyRow, type PolicyScope, policyTable } from './policy-table';

/** A signed-in dashboard user as the policy sees it: its own role and its grants, read fresh per request. */
export interface Actor {
  id: string;
  role: UserRole;
  grants: readonly { siteId: string; role: SiteRole }[];
}

/** What the article scopes need to know about an article. */
export interface ArticleScope {
  siteIds: readonly string[];
  createdBy: string | null;
  status: ArticleStatus;
}

/**
 * What a request acts on, once loaded: nothing, an article (path id), a site (path id), or the articles it
 * names in its body or query (those that exist; none when it names none).
 */
export type PolicyTarget =
  | { kind: 'none' }
  | { kind: 'article'; article: ArticleScope }
  | { kind: 'site'; siteId: string }
  | { kind: 'named-articles'; articles: readonly ArticleScope[]; named: number };

const rowsByOperation = new Map<string, PolicyRow[]>();
for (const row of policyTable) {
  const rows = rowsByOperation.get(row[0]) ?? [];
  rows.push(row);
  rowsByOperation.set(row[0], rows);
}

/** The rows of an operation; none for an unlisted operation (administrators only). */
export function policyRowsOf(operationId: string): readonly PolicyRow[] {
  return rowsByOperation.get(operationId) ?? [];
}

/** The operations of the table. */
export function policyOperationIds(): string[] {
  return [...rowsByOperation.keys()];
}

/** Every role an actor holds anywhere: its own and its grants'. */
export function rolesOf(actor: Actor): Set<UserRole> {
  return new Set<UserRole>([actor.role, ...actor.grants.map((grant) => grant.role)]);
}

const dashboardRoles = new Set<PolicyCaller>(['admin', 'editor', 'contributor', 'reviewer', 'publisher']);

function holdsCaller(actor: Actor, caller: PolicyCaller): boolean {
  if (caller === 'signed-in') return true;
  if (!dashboardRoles.has(caller)) return false;
  return rolesOf(actor).has(caller as UserRole);
}

/**
 * Publisher self-service (rows only for `publisher` on `self`) acts on the caller's own publisher record: an
 * account kind, not a permission, so administrators are not callers of it either.
 */
function isPublisherSelfService(operationId: string): boolean {
  const rows = policyRowsOf(operationId);
  return rows.length > 0 && rows.every(([, caller, scope]) => caller === 'publisher' && scope === 'self');
}

/** The rows of `operationId` whose caller the actor is (administrators: a synthetic row for everything). */
export function rowsFor(actor: Actor, operationId: string): PolicyRow[] {
  if (actor.role === 'admin')
    return isPublisherSelfService(operationId) ? [] : [[operationId, 'admin', 'any']];
  return policyRowsOf(operationId).filter(([, caller]) => holdsCaller(actor, caller));
}

/** May the actor call the operation at all (before any target is known)? The first check of every guard. */
export function mayCall(actor: Actor, operationId: string): boolean {
  return rowsFor(actor, operationId).length > 0;
}

/**
 * Where the articles of a `named-articles` target come from: the request's body or query, the scheduled action
 * of the path `id`, or the release of the path `id`.
 */
export function namedArticlesSourceOf(
  actor: Actor,
  operationId: string,
): 'request' | 'scheduled-action' | 'release' {
  const scopes = new Set<PolicyScope>(rowsFor(actor, operationId).map(([, , scope]) => scope));
  if (scopes.has('scheduled-action')) return 'scheduled-action';
  if (scopes.has('release')) return 'release';
  return 'request';
}

/**
 * Whether the operation's rows for this actor need a target loaded (an article or a site by path id, the
 * articles named in the request).
 */
export function targetKindOf(actor: Actor, operationId: string): PolicyTarget['kind'] {
  const scopes = new Set<PolicyScope>(rowsFor(actor, operationId).map(([, , scope]) => scope));
  if (scopes.has('named-articles') || scopes.has('scheduled-action') || scopes.has('release'))
    return 'named-articles';
  if (scopes.has('site')) return 'site';
  if (scopes.has('article') || scopes.has('own-draft') || scopes.has('visible')) return 'article';
  return 'none';
}

function holdsOnSite(actor: Actor, role: PolicyCaller, siteId: string): boolean {
  return actor.grants.some((grant) => grant.siteId === siteId && grant.role === role);
}

function coversArticle(actor: Actor, role: PolicyCaller, article: ArticleScope): boolean {
  if (article.siteIds.some((siteId) => holdsOnSite(actor, role, siteId))) return true;
  return article.siteIds.length === 0 && article.createdBy === actor.id && actor.role === role;
}

/** The `visible` rule: what an article list shows to a non-administrator (the same predicate, in SQL). */
export function isArticleVisible(actor: Actor, article: ArticleScope): boolean {
  if (actor.role === 'admin') return true;
  if (article.createdBy === actor.id) return true;
  const editorOn = article.siteIds.some((siteId) => holdsOnSite(actor, 'editor', siteId));
  if (editorOn) return true;
  return (
    article.status !== 'draft' &&
    article.siteIds.some((siteId) => actor.grants.some((g) => g.siteId === siteId))
  );
}

function rowAllows(actor: Actor, [, caller, scope]: PolicyRow, target: PolicyTarget): boolean {
  switch (scope) {
    case 'any':
    case 'listed':
    case 'self':
      return true;
    case 'site':
      return target.kind === 'site' && holdsOnSite(actor, caller, target.siteId);
    case 'visible':
      return target.kind === 'article' && isArticleVisible(actor, target.article);
    case 'article':
      return target.kind === 'article' && coversArticle(actor, caller, target.article);
    case 'named-articles':
    case 'scheduled-action':
    case 'release':
      return (
        target.kind === 'named-articles' &&
        target.named > 0 &&
        target.articles.every((article) => coversArticle(actor, caller, article))
      );
    case 'own-draft':
      return (
        target.kind === 'article' &&
        target.article.createdBy === actor.id &&
        target.article.status === 'draft' &&
        coversArticle(actor, caller, target.article)
      );
  }
}

/**
 * The policy's answer for an actor, an operation and its target (`none` when it acts on nothing in
 * particular, or its target does not exist: the handler answers 404 then). `hostSiteIds`: the sites a request
 * body names as host sites (undefined: it names none). Each site the request puts the article on or takes it
 * off must be granted to the actor with a role of an allowing row; on an existing article, the sites it stays on
 * need none (an editor of one site may add another of theirs to an article a third site also carries).
 */
export function isAllowed(
  actor: Actor,
  operationId: string,
  target: PolicyTarget,
  hostSiteIds?: readonly string[],
): boolean {
  if (actor.role === 'admin') return !isPublisherSelfService(operationId);
  const allowing = rowsFor(actor, operationId).filter((row) => rowAllows(actor, row, target));
  if (allowing.length === 0) return false;
  const roles = new Set(allowing.map(([, caller]) => caller));
  const current = target.kind === 'article' ? target.article.siteIds : [];
  return changedHostSites(current, hostSiteIds).every((siteId) =>
    actor.grants.some((g) => g.siteId === siteId && roles.has(g.role)),
  );
}

/** The sites a host-site list adds to `current` or takes off it (none when there is no list). */
function changedHostSites<T>(current: readonly T[], named: readonly T[] | undefined): T[] {
  if (named === undefined) return [];
  return [
    ...named.filter((site) => !current.includes(site)),
    ...current.filter((site) => !named.includes(site)),
  ];
}

/** The sites where the actor holds each role (for list filters). */
export function grantedSiteIds(actor: Actor, roles?: readonly SiteRole[]): string[] {
  return actor.grants.filter((grant) => !roles || roles.includes(grant.role)).map((grant) => grant.siteId);
}
