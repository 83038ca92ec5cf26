import { type AuditActor, type AuditChanges, appendAuditEvent } from '@newsroom/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { type AuditTarget, auditTarget } from './audit-route';

declare module 'fastify' {
  interface FastifyRequest {
    /** The `id` of a created object, taken from the answer for the audit row. */
    auditCreatedId?: string;
  }
}

/** Who made the request: the signed-in user (a publisher account counts as the publisher), else anonymous. */
export function auditActorOf(request: FastifyRequest): AuditActor {
  const user = request.user as { id: string; email: string; role: string } | undefined;
  if (!user) return { type: 'anonymous', id: null, label: null };
  return { type: user.role === 'publisher' ? 'publisher' : 'user', id: user.id, label: user.email };
}

export interface RecordAudit {
  action: string;
  objectType: string;
  objectId: string | null;
  siteId?: string | null;
  changes?: AuditChanges | null;
  /** Defaults to the request's signed-in user. */
  actor?: AuditActor;
}

/**
 * Writes one audit row for this request (address = request.ip, after TRUST_PROXY). The one-liner for events a
 * handler decides itself: `await recordAudit(request, { action: 'logInFailed', objectType: 'user', objectId: null })`.
 */
export function recordAudit(request: FastifyRequest, event: RecordAudit) {
  return appendAuditEvent(request.server.db, {
    actor: event.actor ?? auditActorOf(request),
    address: request.ip,
    action: event.action,
    objectType: event.objectType,
    objectId: event.objectId,
    siteId: event.siteId ?? null,
    changes: event.changes ?? null,
  });
}

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function objectIdOf(request: FastifyRequest, target: AuditTarget): string | null {
  const params = request.params as Record<string, string> | undefined;
  if (target.idParam) {
    const value = params?.[target.idParam];
    // `/publisher/me/...`: the publisher signed in.
    if (value === 'me')
      return (request.user as { publisherId?: string | null } | undefined)?.publisherId ?? null;
    return value ?? null;
  }
  if (request.auditCreatedId) return request.auditCreatedId;
  // `/auth/...`: the signed-in user's own account.
  return target.objectType === 'user' ? ((request.user as { id?: string } | undefined)?.id ?? null) : null;
}

function siteIdOf(request: FastifyRequest, target: AuditTarget, objectId: string | null): string | null {
  if (target.objectType === 'site') return objectId;
  const params = request.params as Record<string, string> | undefined;
  if (target.siteParam && params?.[target.siteParam]) return params[target.siteParam] ?? null;
  const body = request.body as { site?: unknown; siteId?: unknown } | undefined;
  const site = body && typeof body === 'object' ? (body.siteId ?? body.site) : undefined;
  return typeof site === 'string' && uuid.test(site) ? site : null;
}

/**
 * Audits every state-changing route of the dashboard API by default (audit-route.ts decides which and names them):
 * one row once the handler answered 2xx/3xx, before the answer leaves. Registered before the routes (it reads
 * them as they are added).
 */
export const auditPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const target =
      methods.length === 1 ? auditTarget(String(methods[0]), route.url, route.config?.audit) : null;
    if (!target) return;
    const preSerialization = async (request: FastifyRequest, _reply: unknown, payload: unknown) => {
      const id = (payload as { id?: unknown } | null)?.id;
      if (typeof id === 'string') request.auditCreatedId = id;
      return payload;
    };
    const onSend = async (request: FastifyRequest, reply: { statusCode: number }, payload: unknown) => {
      if (reply.statusCode >= 400) return payload;
      const objectId = objectIdOf(request, target);
      const body = request.body;
      try {
        await recordAudit(request, {
          action: target.action,
          objectType: target.objectType,
          objectId,
          siteId: siteIdOf(request, target, objectId),
          changes: body && typeof body === 'object' ? { after: body } : null,
        });
      } catch (err) {
        // The change has committed: answering 500 would invite a retry of it. Loud in the log instead.
        request.log.error({ err, action: target.action }, 'audit row not written');
      }
      return payload;
    };
    route.preSerialization = [
      ...hookList(route.preSerialization),
      preSerialization,
    ] as typeof route.preSerialization;
    route.onSend = [...hookList(route.onSend), onSend] as typeof route.onSend;
  });
});

const hookList = <T>(hook: T | T[] | undefined): T[] =>
  hook === undefined ? [] : Array.isArray(hook) ? hook : [hook];
