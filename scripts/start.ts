import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { ensureLocalEnvFile, loadApiConfig, loadOrExit, loadWorkerConfig } from '@newsroom/config';
import { buildDashboard, describeBuild } from '../apps/dashboard/scripts/build-dashboard';
import { buildBundles, productionNodeFlags } from './build';
import { migrateOrExit } from './migrate';

// Local one-command start: .env (generated on first run), migrations, the production build (dist/),
// then the API and the worker as two node processes running it, as production does. Ctrl-C stops both.
const root = resolve(import.meta.dirname, '..');
ensureLocalEnvFile(resolve(root, '.env'));
const apiConfig = loadOrExit(() => loadApiConfig());
loadOrExit(() => loadWorkerConfig());

await migrateOrExit(apiConfig.databaseUrl);

await buildBundles(resolve(root, 'dist'));
process.stderr.write(describeBuild(await buildDashboard(), root));
// The heap caps production uses (docker-compose.yml); NODE_OPTIONS from the environment wins.
const run = (bundle: string, nodeOptions: string) =>
  spawn(process.execPath, [resolve(root, 'dist', bundle)], {
    stdio: 'inherit',
    env: { ...process.env, NODE_OPTIONS: process.env.NODE_OPTIONS ?? nodeOptions },
  });
const children: ChildProcess[] = [
  run('api.mjs', productionNodeFlags.api.join(' ')),
  run('worker.mjs', productionNodeFlags.worker.join(' ')),
];
process.stderr.write(
  `Dashboard on http://${apiConfig.host}:${apiConfig.port}/ (sign in with ADMIN_EMAIL / ADMIN_PASSWORD from .env)\n` +
    `API on http://${apiConfig.host}:${apiConfig.port}/api/v1 (docs at /docs, health at /health); worker started.\n`,
);

let stopping = false;
function stopAll(signal: NodeJS.Signals) {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill(signal);
}
process.on('SIGINT', () => stopAll('SIGINT'));
process.on('SIGTERM', () => stopAll('SIGTERM'));
for (const child of children) {
  child.on('exit', (code) => {
    stopAll('SIGTERM');
    if (children.every((c) => c.exitCode !== null || c.signalCode !== null)) process.exit(code ?? 0);
  });
}
