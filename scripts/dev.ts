import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { ensureLocalEnvFile, loadApiConfig, loadOrExit, loadWorkerConfig } from '@newsroom/config';
import { startDashboardDevServer } from '../apps/dashboard/scripts/dev-server';
import { migrate } from './migrate';

// Development (`pnpm dev`): the API and the worker from source with reload on change (tsx watch), and the
// dashboard on Vite's dev server (hot reload) proxying /api, /docs and /admin/queues to the API. Ctrl-C stops all.
const root = resolve(import.meta.dirname, '..');
ensureLocalEnvFile(resolve(root, '.env'));
const apiConfig = loadOrExit(() => loadApiConfig());
loadOrExit(() => loadWorkerConfig());
await migrate(apiConfig.databaseUrl, apiConfig.client.searchLanguage);

const tsx = resolve(root, 'node_modules/.bin/tsx');
const children: ChildProcess[] = ['apps/api/src/server.ts', 'apps/worker/src/main.ts'].map((entry) =>
  spawn(tsx, ['watch', '--clear-screen=false', entry], { cwd: root, stdio: 'inherit' }),
);
const apiOrigin = `http://${apiConfig.host === '0.0.0.0' ? '127.0.0.1' : apiConfig.host}:${apiConfig.port}`;
const vite = await startDashboardDevServer(apiOrigin);
process.stderr.write(
  `Dashboard (dev) on ${vite.resolvedUrls?.local[0] ?? 'http://127.0.0.1:5173/'}, API on ${apiOrigin}\n`,
);

function stopAll() {
  for (const child of children) child.kill('SIGTERM');
  void vite.close().then(() => process.exit(0));
}
process.on('SIGINT', stopAll);
process.on('SIGTERM', stopAll);
