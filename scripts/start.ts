import { spawn } from 'node:child_process';
import { relative, resolve } from 'node:path';
import { ensureLocalEnvFile, loadApiConfig, loadOrExit, loadWorkerConfig } from '@newsroom/config';
import { chooseStorage, startLocalStorage, storageEnvironment } from '../apps/api/scripts/local-storage';
import { buildDashboardOrExit } from '../apps/dashboard/scripts/build-dashboard';
import { buildBundles, productionEnvironment, productionNodeFlags } from './build';
import { migrateOrExit } from './migrate';
import { type Supervised, supervise } from './supervise';

// Local one-command start: .env (generated on first run), migrations, the production build (dist/),
// then the API and the worker as two node processes running it, as production does. Ctrl-C stops both.
const root = resolve(import.meta.dirname, '..');
ensureLocalEnvFile(resolve(root, '.env'));
const apiConfig = loadOrExit(() => loadApiConfig());
loadOrExit(() => loadWorkerConfig());

await migrateOrExit({ databaseUrl: apiConfig.databaseUrl, searchLanguage: apiConfig.client.searchLanguage });

await buildBundles(resolve(root, 'dist'));
await buildDashboardOrExit(root);

const address = `http://${apiConfig.host === '0.0.0.0' ? '127.0.0.1' : apiConfig.host}:${apiConfig.port}`;

// Uploads out of the box: without STORAGE_*, outside production, an embedded S3-compatible store on
// loopback, on the API's port + 1 (fixed, so the image URLs stored in articles keep working after a restart).
const storageChoice = chooseStorage(apiConfig);
const storageDirectory = resolve(root, '.data/storage');
const localStorage =
  storageChoice === 'embedded'
    ? await startLocalStorage({
        directory: storageDirectory,
        port: apiConfig.port + 1,
        dashboardOrigins: [
          ...new Set([address, `http://127.0.0.1:${apiConfig.port}`, `http://localhost:${apiConfig.port}`]),
        ],
      }).catch((error: Error) => {
        process.stderr.write(
          `Could not start the embedded upload store on 127.0.0.1:${apiConfig.port + 1} (${error.message}); ` +
            'free that port or set STORAGE_* (docs/uploads.md)\n',
        );
        process.exit(1);
      })
    : undefined;
const uploadsLine = {
  configured: `Uploads: to the bucket ${apiConfig.storage?.bucket} (STORAGE_* settings).`,
  embedded: `Uploads: no STORAGE_* set, so an embedded S3-compatible store for development (s3rver) runs on ${localStorage?.storage.endpoint} (loopback only), files in ${relative(root, storageDirectory)}/; set STORAGE_* for real storage (docs/uploads.md).`,
  none: 'Uploads: off (NODE_ENV=production and no STORAGE_* set): POST /api/v1/sign-storage answers 503 naming the settings.',
}[storageChoice];

// The heap caps and environment production uses (docker-compose.yml); the environment's own values win.
const run = (
  name: string,
  bundle: string,
  role: keyof typeof productionNodeFlags,
  env: Record<string, string> = {},
) => {
  const child = spawn(process.execPath, [resolve(root, 'dist', bundle)], {
    stdio: 'inherit',
    env: {
      ...productionEnvironment[role],
      ...process.env,
      ...env,
      NODE_OPTIONS: process.env.NODE_OPTIONS ?? productionNodeFlags[role].join(' '),
    },
  });
  return { label: name, process: child };
};
const children: Supervised[] = [
  run('API', 'api.mjs', 'api', localStorage && storageEnvironment(localStorage.storage)),
  run('worker', 'worker.mjs', 'worker'),
];
process.stderr.write(
  `Dashboard on ${address}/ (sign in with ADMIN_EMAIL / ADMIN_PASSWORD from .env)\n` +
    `API on ${address}/api/v1 (docs at /docs, health at /health); worker started.\n${uploadsLine}\n`,
);

// Ctrl-C and SIGTERM stop both (supervise.ts says why it forwards SIGTERM); the store stops after them.
const code = await supervise(children, (line) => process.stderr.write(line));
await localStorage?.close();
process.exit(code);
