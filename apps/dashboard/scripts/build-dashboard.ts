import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'vite';

// The dashboard's production build (called by `pnpm build` and `pnpm start`): Vite into apps/dashboard/dist,
// then a .br and a .gz copy of every text file (the API serves them by Accept-Encoding, docs/dashboard.md),
// then the first-load JavaScript of the app (what /login and /publishers fetch before they render).

const appRoot = resolve(import.meta.dirname, '..');
export const dashboardDist = resolve(appRoot, 'dist');

/** At most this much JavaScript (gzipped) before the first view renders (issue 12). */
export const firstLoadBudgetBytes = 200 * 1024;

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

export interface DashboardBuild {
  outDir: string;
  /** Gzipped bytes of the entry chunk and every chunk it imports statically. */
  firstLoadJsGzip: number;
  /** Gzipped bytes of every chunk loaded later (lazy views such as the reports chart). */
  lazyJsGzip: number;
}

const compressible = /\.(js|mjs|css|html|svg|json|txt|map)$/;

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? walk(path) : [path];
  });
}

function writeCompressedCopies(outDir: string): void {
  for (const file of walk(outDir)) {
    if (!compressible.test(file) || file.includes(`${outDir}/.vite`)) continue;
    const content = readFileSync(file);
    writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
    writeFileSync(
      `${file}.br`,
      brotliCompressSync(content, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length },
      }),
    );
  }
}

/** The JavaScript of the first page load: the entry and its static imports, gzipped sizes. */
export function measureFirstLoad(outDir: string): Omit<DashboardBuild, 'outDir'> {
  const manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8')) as Record<
    string,
    ManifestChunk
  >;
  const firstLoad = new Set<string>();
  const visit = (key: string) => {
    if (firstLoad.has(key)) return;
    firstLoad.add(key);
    for (const imported of manifest[key]?.imports ?? []) visit(imported);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) visit(key);
  const gzipOf = (file: string) => gzipSync(readFileSync(join(outDir, file)), { level: 9 }).length;
  let firstLoadJsGzip = 0;
  let lazyJsGzip = 0;
  for (const [key, chunk] of Object.entries(manifest)) {
    if (!chunk.file.endsWith('.js')) continue;
    if (firstLoad.has(key)) firstLoadJsGzip += gzipOf(chunk.file);
    else lazyJsGzip += gzipOf(chunk.file);
  }
  return { firstLoadJsGzip, lazyJsGzip };
}

/** A build whose first-load JavaScript is over the budget: it fails the build (issue 27). */
export class FirstLoadBudgetError extends Error {}

/** Throws a FirstLoadBudgetError when the first load is over `budget` bytes gzipped. */
export function assertFirstLoadBudget(result: DashboardBuild, budget = firstLoadBudgetBytes): void {
  if (result.firstLoadJsGzip > budget) {
    throw new FirstLoadBudgetError(
      `The dashboard's first-load JavaScript is ${kb(result.firstLoadJsGzip)} gzipped, over the ${kb(budget)} budget ` +
        `(${relative(process.cwd(), result.outDir) || '.'}/.vite/manifest.json lists the chunks): load the new code with its view (a lazy route)`,
    );
  }
}

/**
 * Runs `work` with NODE_ENV=production. Vite reads NODE_ENV, not its `mode`, to choose React's build and
 * plugin-react's JSX runtime: the .env of `pnpm start` says development, under vitest it says test, and
 * either would ship React's development build (about 60 KB more on the first load). A dev server is what
 * `pnpm dev` is for; a build is always a production build.
 */
async function asProduction<T>(work: () => Promise<T>): Promise<T> {
  const previous = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    return await work();
  } finally {
    if (previous === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = previous;
  }
}

/**
 * Builds the dashboard in production mode into `outDir` (default apps/dashboard/dist) and returns its
 * first-load size; throws a FirstLoadBudgetError (after writing the build) when that is over the budget.
 */
export async function buildDashboard(outDir = dashboardDist): Promise<DashboardBuild> {
  await asProduction(() =>
    build({
      configFile: resolve(appRoot, 'vite.config.ts'),
      mode: 'production',
      logLevel: 'warn',
      build: { outDir, emptyOutDir: true },
    }),
  );
  writeCompressedCopies(outDir);
  const result = { outDir, ...measureFirstLoad(outDir) };
  assertFirstLoadBudget(result);
  return result;
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** One line for the build log, with the budget. */
export function describeBuild(result: DashboardBuild, root = process.cwd()): string {
  const within = result.firstLoadJsGzip <= firstLoadBudgetBytes ? 'within' : 'OVER';
  return (
    `Built the dashboard into ${relative(root, result.outDir) || '.'}/: first-load JavaScript ` +
    `${kb(result.firstLoadJsGzip)} gzipped (${within} the ${kb(firstLoadBudgetBytes)} budget), ` +
    `lazy views ${kb(result.lazyJsGzip)} gzipped\n`
  );
}

/** For the command-line scripts: builds, prints the build's line, and exits 1 when it is over the budget. */
export async function buildDashboardOrExit(
  root = process.cwd(),
  outDir = dashboardDist,
): Promise<DashboardBuild> {
  try {
    const result = await buildDashboard(outDir);
    process.stderr.write(describeBuild(result, root));
    return result;
  } catch (error) {
    if (!(error instanceof FirstLoadBudgetError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await buildDashboardOrExit(
    process.cwd(),
    process.argv[2] ? resolve(process.argv[2]) : dashboardDist,
  );
  if (!statSync(join(result.outDir, 'index.html')).isFile()) process.exit(1);
}
