import { operationIds } from '../openapi/operation-ids';

/**
 * How a route is audited (route option `config.audit`):
 * - absent: derived. Every non-GET route of the dashboard API writes one row after a 2xx/3xx answer, named after
 *   its operationId, its object found from the path (`auditTarget`).
 * - `false`: the operation changes nothing (a preview, a signature); it writes no row.
 * - `'explicit'`: the handler writes its own row(s) with `recordAudit` (sign-in, sign-out: the outcome decides).
 * - an object: overrides what derivation would pick; on a GET it makes the read an audited event (exports).
 */
export type AuditRouteConfig = false | 'explicit' | Partial<AuditTarget>;

export interface AuditTarget {
  action: string;
  objectType: string;
  /** The path parameter holding the object's id; absent: the answer's `id` (creations), else none. */
  idParam: string | null;
  /** The path parameter holding the site's id, when the route is about one site. */
  siteParam: string | null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    audit?: AuditRouteConfig;
  }
}

// Path segments naming a kind of object; the parameter right after one is that object's id.
const objectSegments: Record<string, string> = {
  article: 'article',
  site: 'site',
  keys: 'site_key',
  publisher: 'publisher',
  webhooks: 'webhook',
  deliveries: 'webhook_delivery',
  auth: 'user',
  account: 'user',
  'sign-storage': 'upload',
  audit: 'audit_log',
};

const singular = (segment: string) => segment.replace(/-/g, '_').replace(/ies$/, 'y').replace(/s$/, '');

/**
 * The audited operation of a route, or null when none is. `url` is Fastify's (`/api/v1/site/:id/keys/:keyId`).
 * The object is the last known object segment of the path (unknown first segments of routes added later are taken
 * singular: `/scheduled-actions/:id` → `scheduled_action`), its id the parameter after it.
 */
export function auditTarget(
  method: string,
  url: string,
  config: AuditRouteConfig | undefined,
): AuditTarget | null {
  if (config === false || config === 'explicit') return null;
  if (method === 'HEAD' || method === 'OPTIONS') return null;
  if (method === 'GET' && config === undefined) return null;
  if (!url.startsWith('/api/v1/') || url.startsWith('/api/v1/client')) return null;
  const segments = url.slice('/api/v1/'.length).split('/');
  let objectType = singular(segments[0] ?? 'api');
  let idParam: string | null = null;
  let siteParam: string | null = null;
  segments.forEach((segment, index) => {
    const known = objectSegments[segment];
    if (!known) return;
    objectType = known;
    // Its id: the parameter after it, past verbs (`/article/publish/:id`); `me`: the signed-in publisher.
    const rest = segments.slice(index + 1);
    const param = rest[0] === 'me' ? ':me' : rest.find((next) => next.startsWith(':'));
    idParam = param ? param.slice(1) : null;
    if (known === 'site' && idParam) siteParam = idParam;
  });
  if (idParam === null && segments[1]?.startsWith(':') && !objectSegments[segments[0] ?? ''])
    idParam = segments[1].slice(1);
  const openApiPath = url.replace(/:(\w+)/g, '{$1}');
  const action = operationIds[`${method} ${openApiPath}`] ?? `${method.toLowerCase()} ${openApiPath}`;
  return { action, objectType, idParam, siteParam, ...(typeof config === 'object' ? config : {}) };
}
