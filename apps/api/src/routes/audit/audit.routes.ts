import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type AuditFilter, listAuditEvents, streamAuditEvents } from '@newsroom/domain';
import type { Static } from 'typebox';
import {
  AuditEventSchema,
  AuditExportQuerySchema,
  AuditListQuerySchema,
  AuditPageSchema,
} from '../../schemas/audit.schema';
import { errorResponses } from '../../schemas/error.schema';

const tags = ['audit'];
const security = [{ bearerAuth: [] }];

const filterOf = (query: Static<typeof AuditExportQuerySchema>): AuditFilter => ({
  actorId: query.actor,
  action: query.action,
  objectType: query.objectType,
  objectId: query.objectId,
  siteId: query.site,
  from: query.from === undefined ? undefined : new Date(query.from),
  to: query.to === undefined ? undefined : new Date(query.to),
});

/** The audit log, for administrators (docs/audit.md). Prefix /audit. */
export const auditRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '',
    {
      schema: {
        tags,
        security,
        summary: 'Audit events, newest first, filtered and keyset-paged',
        description:
          'Every administrative and security event (docs/audit.md). Filters combine with AND; `before` takes the `next` of the page before. Reading writes no event.',
        querystring: AuditListQuerySchema,
        response: { 200: AuditPageSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { before, limit = 50 } = request.query;
      const page = await listAuditEvents(app.db, filterOf(request.query), {
        before: before === undefined ? undefined : Number(before),
        limit,
      });
      return { data: page.items, next: page.next === null ? null : String(page.next) };
    },
  );

  app.get(
    '/export',
    {
      // An export is itself an audited event (exportAuditLog), written once the stream is under way.
      config: { audit: { objectType: 'audit_log', idParam: null } },
      schema: {
        tags,
        security,
        summary: 'Export audit events as NDJSON (one event per line, oldest first), streamed',
        description:
          'Same filters as GET /audit (typically `from` and `to`); read in batches, so any range streams in bounded memory. Each line verifies against the one before it (hash, prevHash) when no filter but the time range is used.',
        querystring: AuditExportQuerySchema,
        response: {
          200: {
            description: 'NDJSON: one AuditEvent per line',
            content: { 'application/x-ndjson': { schema: AuditEventSchema } },
          },
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (request, reply) => {
      const events = streamAuditEvents(app.db, filterOf(request.query));
      const lines = Readable.from(
        (async function* () {
          for await (const event of events) yield `${JSON.stringify(event)}\n`;
        })(),
      );
      return reply
        .type('application/x-ndjson')
        .header('content-disposition', 'attachment; filename="audit.ndjson"')
        .send(lines as never);
    },
  );
};
