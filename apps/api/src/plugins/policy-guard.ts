import {
  type ArticleScope,
  findArticleScope,
  findExistingSiteIds,
  findGrantsOfUser,
  findScheduledArticleIds,
  isAllowed,
  mayCall,
  namedArticlesSourceOf,
  type PolicyActor,
  type PolicyTarget,
  siteExists,
  targetKindOf,
  type User,
} from '@newsroom/domain';
import type { FastifyRequest } from 'fastify';
import { HttpError } from '../http-error';
import { operationIds } from '../openapi/operation-ids';
import { authenticate } from './auth';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user as the policy sees it (role and grants read fresh), set by policyGuard. */
    actor: PolicyActor | undefined;
  }
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The operationId of the request's route (HEAD is its GET), or undefined for a route missing from the list. */
export function operationIdOf(request: FastifyRequest): string | undefined {
  const path = (request.routeOptions.url ?? '').replace(/:(\w+)/g, '{$1}');
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  return operationIds[`${method} ${path}`];
}

/** The policy's view of a user: its role, and its grants when it can hold any. */
export async function actorOf(request: FastifyRequest, user: User): Promise<PolicyActor> {
  const grants =
    user.role === 'admin' || user.role === 'publisher'
      ? []
      : await findGrantsOfUser(request.server.db, user.id);
  return { id: user.id, role: user.role, grants };
}

const refuse = (operationId: string) =>
  new HttpError(403, 'FORBIDDEN', `Your role does not allow ${operationId} here`);

/**
 * The first half of the policy (packages/domain/src/policy), an onRequest hook for a whole route subtree:
 * authenticates (401), then refuses (403) a caller none of whose roles has a row for the operation, before
 * the input is even validated. An operation missing from the table is for administrators only.
 */
export async function policyGuard(request: FastifyRequest): Promise<void> {
  const user = await authenticate(request);
  const actor = await actorOf(request, user);
  request.actor = actor;
  const operationId = operationIdOf(request) ?? `${request.method} ${request.routeOptions.url}`;
  if (!mayCall(actor, operationId)) throw refuse(operationId);
}

/**
 * The articles a request names outside its path (scheduling: `articleId` and `actions[].articleId` in the
 * body, `articleId` in the query). Values that are no UUID are left to the validator (400).
 */
function namedArticleIds(request: FastifyRequest): string[] {
  const body = request.body as { articleId?: unknown; actions?: unknown } | null | undefined;
  const query = request.query as { articleId?: unknown } | undefined;
  const actions =
    typeof body === 'object' && body !== null && Array.isArray(body.actions) ? body.actions : [];
  const candidates: unknown[] = [
    typeof body === 'object' && body !== null ? body.articleId : undefined,
    ...actions.map((action: unknown) =>
      typeof action === 'object' && action !== null
        ? (action as { articleId?: unknown }).articleId
        : undefined,
    ),
    query?.articleId,
  ];
  const ids = candidates.filter((id): id is string => typeof id === 'string' && uuidPattern.test(id));
  return [...new Set(ids)].slice(0, 500);
}

/**
 * The second half, a preValidation hook (the body is parsed by then): loads what the operation acts on (the
 * article or site of the path `id`, the sites named in a body's `hostSites`) and refuses (403) a target out
 * of the caller's scope. A target that does not exist, or an id that is not one, is left to the handler
 * (404) and the validator (400).
 */
export async function policyScopeGuard(request: FastifyRequest): Promise<void> {
  const actor = request.actor;
  if (!actor || actor.role === 'admin') return;
  const operationId = operationIdOf(request) ?? '';
  const db = request.server.db;
  const kind = targetKindOf(actor, operationId);
  let target: PolicyTarget = { kind: 'none' };
  if (kind === 'named-articles') {
    const source = namedArticlesSourceOf(actor, operationId);
    const pathId = (request.params as { id?: unknown } | undefined)?.id;
    let ids: string[];
    if (source === 'request') ids = namedArticleIds(request);
    else if (typeof pathId !== 'string' || !uuidPattern.test(pathId)) return;
    else {
      // The scheduled action's or the release's articles; one that does not exist is the handler's 404.
      const found = await findScheduledArticleIds(db, source, pathId);
      if (!found) return;
      ids = found;
    }
    const found = await Promise.all(ids.map((id) => findArticleScope(db, id)));
    const articles = found.filter((article): article is ArticleScope => article !== undefined);
    target = { kind: 'named-articles', articles, named: ids.length };
  } else if (kind !== 'none') {
    const id = (request.params as { id?: unknown } | undefined)?.id;
    if (typeof id !== 'string' || !uuidPattern.test(id)) return;
    if (kind === 'article') {
      const article = await findArticleScope(db, id);
      if (!article) return;
      target = { kind: 'article', article };
    } else {
      if (!(await siteExists(db, id))) return;
      target = { kind: 'site', siteId: id };
    }
  }
  const body = request.body as { hostSites?: unknown } | null | undefined;
  const named =
    typeof body === 'object' && body !== null && Array.isArray(body.hostSites) ? body.hostSites : null;
  // Unknown slugs are left out here (the handler answers UNKNOWN_SITE); no list: the request moves no site.
  const slugs = named?.filter((slug): slug is string => typeof slug === 'string' && slug.length <= 63);
  const hostSiteIds = slugs && (await findExistingSiteIds(db, slugs));
  if (!isAllowed(actor, operationId, target, hostSiteIds)) throw refuse(operationId);
}
