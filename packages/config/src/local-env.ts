import { randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

const secret = (bytes: number) => randomBytes(bytes).toString('base64url');

function localEnvFile(): string {
  return [
    '# Generated on first start for local development. Edit freely; see .env.example for every variable.',
    'NODE_ENV=development',
    'PORT=3000',
    'HOST=127.0.0.1',
    `API_KEY=${secret(24)}`,
    `JWT_SECRET=${secret(48)}`,
    'DATABASE_URL=postgres://postgres@127.0.0.1:5432/newsroom',
    'REDIS_URL=redis://127.0.0.1:6379',
    'ADMIN_EMAIL=admin@example.com',
    `ADMIN_PASSWORD=${secret(18)}`,
    '',
  ].join('\n');
}

/**
 * Outside production, creates `path` with random secrets and an admin login when it does not exist,
 * and says so on stderr; then loads it into process.env (real environment variables win).
 * In production nothing is generated: missing secrets must stop the process instead.
 */
export function ensureLocalEnvFile(path: string, env: NodeJS.ProcessEnv = process.env): void {
  if (!existsSync(path)) {
    if (env.NODE_ENV === 'production') return;
    writeFileSync(path, localEnvFile(), { mode: 0o600 });
    process.stderr.write(
      `No .env found: created ${path} with a random API_KEY, JWT_SECRET and an admin login (ADMIN_EMAIL / ADMIN_PASSWORD); read them there.\n`,
    );
  }
  process.loadEnvFile(path);
}

/**
 * What every entry point (API, worker, `pnpm migrate`, `pnpm admin:create`) does first: loads `.env` from the
 * working directory into process.env when the file exists. Real environment variables win over the file.
 */
export function readLocalEnvFile(path = resolve(process.cwd(), '.env')): void {
  if (existsSync(path)) process.loadEnvFile(path);
}
