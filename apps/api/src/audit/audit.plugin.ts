import {
  type AuditActor,
  type AuditChanges,
  type AuditEventInput,
  appendAuditEvent,
  auditedChange,
  type PendingAudit,
  pendingAudit,
  runAudited,
} from '@newsroom/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import fp from 'fastify-plugin';
import { type AuditTarget, auditTarget } from './audit-route';

declare module 'fastify' {
  interface FastifyRequest {
    /** The `id` of a created object, taken from the answer for the audit row. */
    auditCreatedId?: string;
    /** The audit row this request's change owes (written with its first writing transaction). */
    pendingAudit?: PendingAudit;
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

function auditEventOf(request: FastifyRequest, event: RecordAudit): AuditEventInput {
  return {
    actor: event.actor ?? auditActorOf(request),
    address: request.ip,
    action: event.action,
    objectType: event.objectType,
    objectId: event.objectId,
    siteId: event.siteId ?? null,
    changes: event.changes ?? null,
  };
}

/**
 * Writes one audit row for this request, alone (address = request.ip, after TRUST_PROXY). For events with no
 * change to commit: `await recordAudit(request, { action: 'logInFailed', objectType: 'user', objectId: null })`.
 */
export function recordAudit(request: FastifyRequest, event: RecordAudit) {
  return appendAuditEvent(request.server.db, auditEventOf(request, event));
}

/**
 * Runs `change` with its audit row: the row is the last statement of the change's first writing transaction
 * (both commit or neither), or is written alone after a change that wrote nothing.
 */
export function recordAuditedChange<T>(
  request: FastifyRequest,
  event: RecordAudit,
  change: () => Promise<T>,
): Promise<T> {
  return auditedChange(auditEventOf(request, event), change, (alone) =>
    appendAuditEvent(request.server.db, alone),
  );
}

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The object's id; undefined for a creation (the created row's id, known once it is inserted). */
function objectIdOf(request: FastifyRequest, target: AuditTarget): string | null | undefined {
  const params = request.params as Record<string, string> | undefined;
  if (target.idParam) {
    // `/publisher/me/...`: the publisher signed in.
    if (target.idParam === 'me')
      return (request.user as { publisherId?: string | null } | undefined)?.publisherId ?? null;
    return params?.[target.idParam] ?? null;
  }
  // `/auth/...`: the signed-in user's own account.
  if (target.objectType === 'user') return (request.user as { id?: string } | undefined)?.id ?? null;
  // A creation: the created row's (the answer's) id.
  return request.method === 'POST' ? undefined : null;
}

function siteIdOf(
  request: FastifyRequest,
  target: AuditTarget,
  objectId: string | null | undefined,
): string | null {
  if (target.objectType === 'site') return objectId ?? null;
  const params = request.params as Record<string, string> | undefined;
  if (target.siteParam && params?.[target.siteParam]) return params[target.siteParam] ?? null;
  const body = request.body as { site?: unknown; siteId?: unknown } | undefined;
  const site = body && typeof body === 'object' ? (body.siteId ?? body.site) : undefined;
  return typeof site === 'string' && uuid.test(site) ? site : null;
}

/** The row a request of an audited route owes, from what is known before its handler runs. */
function pendingAuditOf(request: FastifyRequest, target: AuditTarget): PendingAudit {
  const objectId = objectIdOf(request, target);
  const body = request.body;
  return pendingAudit({
    actor: auditActorOf(request),
    address: request.ip,
    action: target.action,
    objectType: target.objectType,
    objectId,
    siteId: siteIdOf(request, target, objectId),
    changes: body && typeof body === 'object' ? { after: body } : null,
  });
}

/**
 * Audits every state-changing route of the dashboard API by default (audit-route.ts decides which and names them).
 * The handler runs as an audited unit (domain audit-unit.ts): its row is the last statement of the first
 * transaction that writes, so the change and its row commit together or not at all; a failed append rolls the
 * change back and answers 503 AUDIT_NOT_WRITTEN. A handler that answered 2xx/3xx without writing anything (a job
 * queued, a no-op) gets its row alone, before the answer leaves. Registered before the routes (it reads them as
 * they are added).
 */
export const auditPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const target =
      methods.length === 1 ? auditTarget(String(methods[0]), route.url, route.config?.audit) : null;
    if (!target) return;
    const handler = route.handler as RouteHandlerMethod;
    route.handler = function auditedHandler(this: FastifyInstance, request, reply) {
      const pending = pendingAuditOf(request, target);
      request.pendingAudit = pending;
      return runAudited(pending, () => handler.call(this, request, reply));
    } as typeof route.handler;
    const preSerialization = async (request: FastifyRequest, _reply: unknown, payload: unknown) => {
      const id = (payload as { id?: unknown } | null)?.id;
      if (typeof id === 'string') request.auditCreatedId = id;
      return payload;
    };
    const onSend = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      const pending = request.pendingAudit;
      if (reply.statusCode >= 400 || !pending) return payload;
      const { event } = pending;
      const createdId = event.objectId === undefined ? (request.auditCreatedId ?? null) : event.objectId;
      if (pending.written) {
        // The created object was taken to be the first row inserted into its table: say so when it was not.
        if (pending.objectId !== createdId)
          request.log.error(
            { action: event.action, row: pending.objectId, answer: createdId },
            'audit row names another object',
          );
        return payload;
      }
      // No database change was committed (the handler queued a job, or had nothing to do): its row alone.
      try {
        await appendAuditEvent(request.server.db, { ...event, objectId: createdId });
        pending.written = true;
      } catch (err) {
        // Whatever the handler did outside the database (a queued job) is done: a 500 would invite a retry of it.
        request.log.error({ err, action: event.action }, 'audit row not written');
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
