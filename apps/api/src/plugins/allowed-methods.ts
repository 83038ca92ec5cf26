import type { FastifyInstance } from 'fastify';

/**
 * The methods each registered path answers, so a request with another method on an existing path gets 405
 * with `Allow` rather than a 404 that says the path does not exist. Routes are recorded as they are added
 * (an onRoute hook: register this before the routes). The dashboard's history fallback (`/*`) is left out:
 * it would make every path look like a GET route; so is a wildcard OPTIONS route (a CORS preflight).
 */
export function recordAllowedMethods(app: FastifyInstance): (path: string) => string[] {
  const routes: { pattern: RegExp; methods: string[] }[] = [];
  app.addHook('onRoute', (route) => {
    if (route.url === '/*') return;
    // The client routes' CORS preflight (`OPTIONS /api/v1/client/*`) answers browsers, it adds no path.
    if (route.method === 'OPTIONS' && route.url.endsWith('/*')) return;
    const methods = [route.method].flat();
    routes.push({ pattern: patternOf(route.url), methods });
  });
  return (path) => {
    const allowed = new Set<string>();
    for (const route of routes) {
      if (route.pattern.test(path)) for (const method of route.methods) allowed.add(method);
    }
    return [...allowed].sort(byUsualOrder);
  };
}

/** A route URL as a regular expression: `:param` is one segment, `*` the rest. */
function patternOf(url: string): RegExp {
  const source = url
    .split(/(:[A-Za-z0-9_]+|\*)/)
    .map((part) => {
      if (part === '*') return '.*';
      if (part.startsWith(':')) return '[^/]+';
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  return new RegExp(`^${source}/?$`);
}

const usualOrder = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const byUsualOrder = (a: string, b: string) =>
  (usualOrder.indexOf(a) + 1 || 99) - (usualOrder.indexOf(b) + 1 || 99) || a.localeCompare(b);
