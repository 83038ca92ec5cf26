import { existsSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Paths the dashboard's history fallback never answers: they keep their own routes and JSON 404s. */
export const serverPrefixes = ['/api', '/docs', '/admin/queues', '/health', '/ready', '/metrics'];

const immutable = 'public, max-age=31536000, immutable';
const revalidate = 'no-cache';

const isServerPath = (path: string) => serverPrefixes.some((p) => path === p || path.startsWith(`${p}/`));
const wantsPage = (request: FastifyRequest) => /\btext\/html\b/.test(String(request.headers.accept ?? ''));

/** Every file of the build, as URL paths without the leading slash (precompressed copies excluded). */
function filesOf(root: string): Set<string> {
  const files = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && !/\.(br|gz)$/.test(entry.name)) {
        files.add(relative(root, path).split(sep).join('/'));
      }
    }
  };
  walk(root);
  return files;
}

type ConstraintStrategy = Parameters<FastifyInstance['addConstraintStrategy']>[0];
type RouteStore = ReturnType<ReturnType<ConstraintStrategy['storage']>['get']>;

/**
 * A route constraint worth 'page' for a path outside the server's prefixes and nothing under them, so a
 * route constrained to 'page' is never chosen for /api/..., /docs/... and the like.
 */

const dashboardPathStrategy: ConstraintStrategy = {
  name: 'dashboardPath',
  storage() {
    const stores = new Map<unknown, RouteStore>();
    return {
      get: (value) => stores.get(value) ?? null,
      set: (value, store) => void stores.set(value, store),
    };
  },
  deriveConstraint(request) {
    const url = request.url ?? '/';
    const query = url.indexOf('?');
    return isServerPath(query === -1 ? url : url.slice(0, query)) ? undefined : 'page';
  },
  mustMatchWhenDerived: false,
};

const pointerPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Newsroom API</title></head>
<body><h1>Newsroom API</h1><p>The dashboard is not built here. The API reference is at <a href="/docs">/docs</a>.</p></body></html>`;

/**
 * Serves the built dashboard (config.dashboardDist) at the site root, same origin as the API
 * (docs/dashboard.md, "Serving"): its files as they are, with precompressed .br/.gz copies chosen by
 * Accept-Encoding; hashed /assets/* cached for a year, everything else revalidated; and index.html for
 * any other page a browser asks for (history fallback), except under the server's own prefixes. The
 * file list is read at start: restart the API after rebuilding the dashboard. Without a build,
 * `GET /` points to /docs.
 */
export async function dashboardStatic(app: FastifyInstance): Promise<void> {
  const root = app.config.dashboardDist;
  if (!existsSync(join(root, 'index.html'))) {
    app.get('/', { schema: { hide: true } }, async (request, reply) => {
      if (wantsPage(request)) return reply.type('text/html; charset=utf-8').send(pointerPage);
      return { name: 'newsroom-api', docs: '/docs', dashboard: 'not built (pnpm build)' };
    });
    return;
  }
  const files = filesOf(root);
  await app.register(fastifyStatic, {
    root,
    serve: false,
    preCompressed: true,
    index: false,
    setHeaders: (reply, path) => {
      const inAssets = relative(root, path).split(sep)[0] === 'assets';
      reply.header('cache-control', inAssets ? immutable : revalidate);
    },
  });

  const serve = async (request: FastifyRequest<{ Params: { '*': string } }>, reply: FastifyReply) => {
    const path = request.params['*'] ?? '';
    if (files.has(path)) return reply.sendFile(path);
    if (wantsPage(request) && !isServerPath(`/${path}`)) return reply.sendFile('index.html');
    return reply.callNotFound();
  };
  // The catch-all is constrained to paths outside the server's prefixes. Unconstrained, the router falls back
  // to it whenever an API route does not match, e.g. on a parameter over maxParamLength, and that request
  // would get the dashboard's 404 instead of the router's own answer (414 PATH_PARAMETER_TOO_LONG).
  app.addConstraintStrategy(dashboardPathStrategy);
  app.route({
    method: ['GET', 'HEAD'],
    url: '/*',
    constraints: { [dashboardPathStrategy.name]: 'page' },
    schema: { hide: true },
    handler: serve,
  });
}
