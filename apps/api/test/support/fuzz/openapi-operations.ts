/** The subset of OpenAPI 3.0 (as @fastify/swagger writes it) that the fuzz test reads. */

export interface JsonSchema {
  type?: string;
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  nullable?: boolean;
  $ref?: string;
}

interface OpenApiParameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  required?: boolean;
  schema: JsonSchema;
}

interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema }> };
  security?: Record<string, string[]>[];
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

/** Who may call an operation, as its `security` says (bearer routes are refined by path, see roleOf). */
export type Caller = 'anyone' | 'admin' | 'publisher' | 'dashboard user' | 'client';

export interface Parameter {
  name: string;
  required: boolean;
  schema: JsonSchema;
}

export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The OpenAPI path, with `{name}` placeholders. */
  path: string;
  pathParams: Parameter[];
  query: Parameter[];
  /** The JSON body's schema, when the operation takes one. */
  body?: JsonSchema;
  caller: Caller;
}

/**
 * Bearer routes do not say which role they need in the document; the route tree does, by prefix:
 * /publisher/me* is publisher self-service, /auth/me takes any dashboard user, the rest is for administrators.
 */
function callerOf(path: string, security: OpenApiOperation['security']): Caller {
  const schemes = (security ?? []).flatMap((requirement) => Object.keys(requirement));
  if (schemes.length === 0) return 'anyone';
  if (schemes.some((scheme) => scheme.startsWith('apiKey'))) return 'client';
  if (path.startsWith('/api/v1/publisher/me')) return 'publisher';
  if (path.startsWith('/api/v1/auth/')) return 'dashboard user';
  return 'admin';
}

/** Inlines `$ref`s to components.schemas (request schemas are small and not recursive). */
function resolve(schema: JsonSchema, document: OpenApiDocument, depth = 0): JsonSchema {
  if (depth > 20) throw new Error('schema nesting too deep (a recursive $ref?)');
  if (schema.$ref) {
    const name = schema.$ref.replace('#/components/schemas/', '');
    const target = document.components?.schemas?.[name];
    if (!target) throw new Error(`unresolved $ref ${schema.$ref}`);
    return resolve(target, document, depth + 1);
  }
  const out: JsonSchema = { ...schema };
  if (schema.items) out.items = resolve(schema.items, document, depth + 1);
  if (schema.properties)
    out.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([key, value]) => [key, resolve(value, document, depth + 1)]),
    );
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const)
    if (schema[key]) out[key] = schema[key].map((branch) => resolve(branch, document, depth + 1));
  if (typeof schema.additionalProperties === 'object')
    out.additionalProperties = resolve(schema.additionalProperties, document, depth + 1);
  return out;
}

/** Every operation of the document, with its parameters and body schema resolved. */
export function operationsOf(document: OpenApiDocument): Operation[] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => {
      const parameters = (operation.parameters ?? []).map((parameter) => ({
        in: parameter.in,
        name: parameter.name,
        required: parameter.required ?? false,
        schema: resolve(parameter.schema, document),
      }));
      const json = operation.requestBody?.content['application/json'];
      return {
        method: method.toUpperCase() as Operation['method'],
        path,
        pathParams: parameters.filter((parameter) => parameter.in === 'path'),
        query: parameters.filter((parameter) => parameter.in === 'query'),
        ...(json ? { body: resolve(json.schema, document) } : {}),
        caller: callerOf(path, operation.security),
      };
    }),
  );
}
