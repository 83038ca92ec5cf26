import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { buildDashboard } from '../../../scripts/build-dashboard';

// The dashboard's production build for the browser tests, built once per content and shared by every browser
// test file of the run (each used to build its own: ~10 s of Vite and brotli per file). The folder is named by a
// hash of everything the build reads, so an edit gives a new build and nothing stale is ever served; it lives in
// the OS temp folder, never in the checkout.

const appRoot = resolve(import.meta.dirname, '../../..');
const inputs = [
  'src',
  'public',
  'index.html',
  'vite.config.ts',
  'package.json',
  'scripts/build-dashboard.ts',
];
const ready = '.build-complete';
const staleAfterMs = 6 * 60 * 60 * 1000;

function files(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => files(join(path, name)));
}

function contentHash(): string {
  const hash = createHash('sha256');
  for (const file of inputs.flatMap((input) => files(join(appRoot, input)))) {
    hash.update(relative(appRoot, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

/** Removes other builds left in the temp folder hours ago (a build in use by another run is recent). */
function removeStaleBuilds(keep: string): void {
  for (const name of readdirSync(tmpdir())) {
    const path = join(tmpdir(), name);
    if (!name.startsWith('newsroom-dashboard-build-') || path === keep) continue;
    try {
      if (Date.now() - statSync(path).mtimeMs > staleAfterMs) rmSync(path, { recursive: true, force: true });
    } catch {
      // Another run removed it first.
    }
  }
}

/** The folder of a production build of the dashboard as its sources are now (built on first use). */
export async function builtDashboard(): Promise<string> {
  const dir = join(tmpdir(), `newsroom-dashboard-build-${contentHash()}`);
  if (existsSync(join(dir, ready))) return dir;
  const building = mkdtempSync(`${dir}.building-`);
  await buildDashboard(building);
  writeFileSync(join(building, ready), '');
  try {
    renameSync(building, dir);
  } catch {
    // Another test file finished the same build first: use that one.
    rmSync(building, { recursive: true, force: true });
  }
  removeStaleBuilds(dir);
  return dir;
}
