import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import type { ApiConfig } from '@newsroom/config';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { uploadOrigins } from '../storage/upload-signer';

/**
 * The Content-Security-Policy of everything a browser opens here: Swagger UI (/docs), Bull Board
 * (/admin/queues), and the dashboard (a React SPA from this origin). Scripts only from this origin and
 * never inline; inline styles allowed (Swagger UI, Bull Board and the queue login page set them; styles
 * run no code); images also from data:, https: (feed thumbnails live on publishers' sites) and the
 * storage's public URL; the browser may PUT uploads to the storage endpoint.
 */
export function contentSecurityPolicy(config: Pick<ApiConfig, 'env' | 'storage'>) {
  const storage = config.storage ? uploadOrigins(config.storage) : { upload: [], public: [] };
  return {
    useDefaults: false,
    directives: {
      'default-src': ["'self'"],
      'base-uri': ["'self'"],
      'script-src': ["'self'"],
      'script-src-attr': ["'none'"],
      'style-src': ["'self'", "'unsafe-inline'"],
      // Outside production also http: (development feeds and their pictures are often plain http on
      // loopback); in production http:// pictures are upgraded to https instead (below).
      'img-src': [
        "'self'",
        'data:',
        'https:',
        ...(config.env === 'production' ? [] : ['http:']),
        ...storage.public,
      ],
      'font-src': ["'self'", 'data:'],
      'connect-src': ["'self'", ...storage.upload],
      'object-src': ["'none'"],
      'frame-ancestors': ["'none'"],
      'form-action': ["'self'"],
      // Behind TLS, http:// thumbnails are fetched over https instead of being blocked. Not in development,
      // where the API is plain http on loopback and the upgrade would break its own assets.
      ...(config.env === 'production' ? { 'upgrade-insecure-requests': [] } : {}),
    },
  };
}

export function helmetOptions(config: Pick<ApiConfig, 'env' | 'storage'>): FastifyHelmetOptions {
  return {
    contentSecurityPolicy: contentSecurityPolicy(config),
    frameguard: { action: 'deny' },
  };
}

/**
 * Helmet's headers on every route registered after it in the caller's context. Registered only around the
 * browser-facing routes: it builds its headers on every request, which the client API (tens of
 * thousands of JSON reads a second, for servers) does not pay; that subtree sets a few static headers.
 */
export const securityHeadersPlugin = fp(async (app: FastifyInstance) => {
  await app.register(helmet, helmetOptions(app.config));
});
