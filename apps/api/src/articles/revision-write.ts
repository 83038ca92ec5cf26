import type { RevisionSource, RevisionWrite } from '@newsroom/domain';
import type { FastifyRequest } from 'fastify';

/**
 * Who makes an article write, for its revision: a person in the dashboard (session cookie: actor 'user',
 * the given source, 'editor' by default), or a program with a bearer token (actor 'api-client', source
 * 'api' unless the write is a bulk or a restore, which say so whatever the client).
 */
export function revisionWriteOf(
  request: FastifyRequest,
  source: RevisionSource = 'editor',
  reason: string | null = null,
): RevisionWrite {
  const user = request.user;
  const byDashboard = request.dashboardSessionId !== null;
  const kept = source === 'bulk' || source === 'restore' || source === 'review';
  return {
    actor: { kind: byDashboard ? 'user' : 'api-client', id: user.id, label: user.email },
    source: byDashboard || kept ? source : 'api',
    reason,
  };
}
