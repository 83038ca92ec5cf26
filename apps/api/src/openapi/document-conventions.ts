import { policyRowsOf } from '@newsroom/domain';
import { addClientExamples } from './client-examples';
import { nameTitledSchemas } from './named-schemas';
import { operationIds } from './operation-ids';
import { documentResponseHeaders, headerComponents } from './response-headers';

/** The part of an OpenAPI 3 document these conventions read and write. */
interface OpenApiParameter {
  in?: string;
  name?: string;
  required?: boolean;
  schema?: { default?: unknown };
}
interface OpenApiOperation {
  operationId?: string;
  security?: Array<Record<string, string[]>>;
  parameters?: OpenApiParameter[];
  /** The policy's rows for the operation (packages/domain/src/policy): who may call it, and on what. */
  'x-permissions'?: Array<{ caller: string; scope: string }>;
  responses?: Record<
    string,
    {
      headers?: Record<string, unknown>;
      content?: Record<string, { schema?: { $ref?: string }; example?: unknown }>;
    }
  >;
}
export interface OpenApiDocumentShape {
  servers?: Array<{ url: string; description?: string }>;
  paths?: Record<string, Record<string, OpenApiOperation> | undefined>;
  components?: { schemas?: Record<string, unknown>; headers?: Record<string, unknown> };
}

const httpMethods = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);

/** Operations anyone may call: `security: []` says so explicitly. */
const publicOperationIds = new Set(['getHealth', 'getReadiness', 'logIn', 'createSession']);

/** Dashboard routes take the JWT or, without an Authorization header, the session cookie (docs/auth.md). */
const dashboardSecurity: Array<Record<string, string[]>> = [{ bearerAuth: [] }, { sessionCookie: [] }];

/**
 * What the route schemas cannot say on their own, applied to the generated document (docs/openapi.md):
 * a relative server, each operation's operationId (operation-ids.ts), `security: []` on public operations
 * and the session cookie beside the JWT on dashboard ones, and a query parameter with a default never
 * required (the client may leave it out); the ETag, Cache-Control, Retry-After and RateLimit-* response headers,
 * examples on the client operations, and titled schemas as named components. An operation missing from operation-ids.ts keeps no id, and a
 * non-public one without security keeps none: the document test names both.
 */
export function applyDocumentConventions(document: OpenApiDocumentShape): void {
  document.servers = [{ url: '/', description: 'this API, relative to the document' }];
  for (const [path, pathItem] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(pathItem ?? {})) {
      if (!httpMethods.has(method)) continue;
      const operationId = operation.operationId ?? operationIds[`${method.toUpperCase()} ${path}`];
      if (operationId) operation.operationId = operationId;
      operation['x-permissions'] = permissionsOf(operationId);
      if (operation.security === undefined && operationId && publicOperationIds.has(operationId)) {
        operation.security = [];
      }
      if (isBearerOnly(operation.security))
        operation.security = dashboardSecurity.map((requirement) => ({ ...requirement }));
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in === 'query' && parameter.schema?.default !== undefined) parameter.required = false;
      }
      documentResponseHeaders(path, operation.operationId, operation.responses);
      addClientExamples(path, operation);
    }
  }
  document.components = { ...document.components, headers: { ...headerComponents } };
  nameTitledSchemas(document);
}

/** The operation's policy rows; an operation without any is for administrators only, and says so. */
function permissionsOf(operationId: string | undefined): Array<{ caller: string; scope: string }> {
  const rows = operationId ? policyRowsOf(operationId) : [];
  if (rows.length === 0) return [{ caller: 'admin', scope: 'any' }];
  return rows.map(([, caller, scope]) => ({ caller, scope }));
}

function isBearerOnly(security: OpenApiOperation['security']): boolean {
  return security?.length === 1 && Object.keys(security[0] ?? {}).join() === 'bearerAuth';
}
