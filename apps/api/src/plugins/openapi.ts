import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { applyDocumentConventions, type OpenApiDocumentShape } from '../openapi/document-conventions';
import { ErrorSchema } from '../schemas/error.schema';

/**
 * OpenAPI 3 generated from the route schemas; every route appears by construction. Registered at the root
 * (it collects routes as they are added); its UI (docsRoutes) lives among the browser-facing routes.
 */
export const openApiPlugin = fp(async (app: FastifyInstance) => {
  app.addSchema(ErrorSchema);
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Newsroom content API',
        description:
          'Content backend for a network of news sites: dashboard routes (JWT) for administrators and publishers, read-only client routes (API key) for child sites.',
        version: '1.0.0',
      },
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          sessionCookie: { type: 'apiKey', in: 'cookie', name: 'newsroom_session' },
          apiKeyHeader: { type: 'apiKey', in: 'header', name: 'x-api-key' },
          apiKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key' },
          metricsToken: {
            type: 'http',
            scheme: 'bearer',
            description: 'METRICS_TOKEN (GET /metrics exists only when it is set)',
          },
        },
      },
    },
    // Shared schemas become components named by their $id (`Error`), not `def-0`.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    transformObject: (documentObject) => {
      if (!('openapiObject' in documentObject)) return documentObject.swaggerObject;
      applyDocumentConventions(documentObject.openapiObject as OpenApiDocumentShape);
      return documentObject.openapiObject;
    },
  });
});

/** Swagger UI at /docs and the document at /docs/json. */
export async function docsRoutes(app: FastifyInstance) {
  await app.register(swaggerUi, { routePrefix: '/docs' });
}
