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

/** Builds the dashboard into `outDir` (default apps/dashboard/dist) and returns its first-load size. */
export async function buildDashboard(outDir = dashboardDist): Promise<DashboardBuild> {
  await build({
    configFile: resolve(appRoot, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true },
  });
  writeCompressedCopies(outDir);
  return { outDir, ...measureFirstLoad(outDir) };
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

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await buildDashboard(process.argv[2] ? resolve(process.argv[2]) : dashboardDist);
  process.stdout.write(describeBuild(result));
  if (!statSync(join(result.outDir, 'index.html')).isFile()) process.exit(1);
}
