import { resolve } from 'node:path';
import { createServer, type ViteDevServer } from 'vite';

/** The API's own paths: the dev server sends these to the API, everything else is the app. */
export const apiPaths = ['/api', '/docs', '/admin/queues', '/health', '/ready'];

/**
 * Vite's dev server for the dashboard (hot reload) on loopback, proxying the API's paths to `apiOrigin`,
 * so the app and the API share one origin in the browser, as in production.
 */
export async function startDashboardDevServer(apiOrigin: string, port = 5173): Promise<ViteDevServer> {
  const server = await createServer({
    configFile: resolve(import.meta.dirname, '../vite.config.ts'),
    server: {
      host: '127.0.0.1',
      port,
      strictPort: false,
      proxy: Object.fromEntries(apiPaths.map((path) => [path, { target: apiOrigin, changeOrigin: false }])),
    },
  });
  await server.listen();
  return server;
}
