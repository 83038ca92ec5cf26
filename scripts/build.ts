import { builtinModules } from 'node:module';
import { relative, resolve, sep } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { buildDashboardOrExit } from '../apps/dashboard/scripts/build-dashboard';

// The production build (`pnpm build`): one ES module per process in dist/, run by plain node.
// Workspace packages (@newsroom/*, TypeScript) are bundled in; third-party packages (but see
// bundledPackages) stay in node_modules. pnpm's layout keeps each package's dependencies next to that package, not at the
// root, so a bare `import 'feedparser'` in dist/ would not resolve: each third-party import is
// resolved at build time from the file that wrote it, as node would resolve it there, and the bundle
// imports that file by a relative path. A bundle therefore runs against the node_modules it was built
// with (build it where it runs, as the Dockerfile does).
const root = resolve(import.meta.dirname, '..');

/**
 * The node flags each process runs with in production: heap caps (docker-compose.yml sets the same through
 * NODE_OPTIONS). The worker's young generation is capped too: Node 24 grows it to 128 MB on a machine with
 * plenty of memory (docs/feed-ingestion.md, "Memory").
 */
export const productionNodeFlags = {
  api: ['--max-old-space-size=256'],
  worker: ['--max-old-space-size=192', '--max-semi-space-size=8'],
} as const;

/**
 * The environment each process adds in production (docker-compose.yml sets the same; the process's own
 * environment wins). The worker's glibc malloc keeps at most 2 arenas: by default each of its threads (V8's
 * compiler and GC helpers, libuv's pool) may get its own, and memory freed in one is not reused by another, so
 * an import's native allocations left ~15-25 MiB more resident (bench/RESULTS.md, "Worker memory").
 */
export const productionEnvironment: Record<'api' | 'worker', Record<string, string>> = {
  api: {},
  worker: { MALLOC_ARENA_MAX: '2' },
};

/** The entry points: dist/<name>.mjs. */
export const bundleEntries: Record<string, string> = {
  api: 'apps/api/src/server.ts',
  worker: 'apps/worker/src/main.ts',
  migrate: 'scripts/migrate.ts',
  // piscina loads it by file name next to the module that creates the pool (password-hasher.ts).
  'bcrypt.worker': 'packages/domain/src/users/bcrypt.worker.mjs',
};

// Bundled: our workspace packages, and two pure-ESM libraries without files of their own to load at run
// time whose unbundled module trees cost ~30 MB of resident memory per process (typebox: ~180 modules,
// kysely); bundled, only what we use is kept. Everything else stays in node_modules.
const bundledPackages = /^(@newsroom\/|typebox(\/|$)|kysely(\/|$))/;

const builtins = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);

function nodeModulesByPath(outdir: string): Plugin {
  return {
    name: 'node-modules-by-path',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData === 'by-path' || bundledPackages.test(args.path)) return undefined;
        if (builtins.has(args.path)) return { path: args.path, external: true };
        const found = await pluginBuild.resolve(args.path, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          importer: args.importer,
          pluginData: 'by-path',
        });
        if (found.errors.length > 0) return { errors: found.errors };
        const path = relative(outdir, found.path).split(sep).join('/');
        return { path: path.startsWith('.') ? path : `./${path}`, external: true };
      });
    },
  };
}

/** Builds the bundles (default: every production entry) into `outdir` (default dist/). */
export async function buildBundles(
  outdir = resolve(root, 'dist'),
  entries: Record<string, string> = bundleEntries,
): Promise<void> {
  await build({
    absWorkingDir: root,
    entryPoints: Object.entries(entries).map(([out, entry]) => ({ in: entry, out })),
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    // Resolve as node does: no "module" field or condition (node never reads them), so a package is
    // loaded from the same file whether our code or another package imports it.
    mainFields: ['main'],
    conditions: [],
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [nodeModulesByPath(outdir)],
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const outdir = resolve(root, process.argv[2] ?? 'dist');
  await buildBundles(outdir);
  process.stdout.write(
    `Built ${Object.keys(bundleEntries).join(', ')} into ${relative(root, outdir) || '.'}/\n`,
  );
  // The dashboard (apps/dashboard/dist), served by the API at the site root; over its budget, the build fails.
  await buildDashboardOrExit(root);
}
