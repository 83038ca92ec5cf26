import { execFile } from 'node:child_process';
import { copyFile, cp, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createPreviewLink } from '@newsroom/domain';
import { afterAll, describe, expect, it } from 'vitest';
import {
  insertArticle,
  insertSite,
  issueSiteKey,
  minutesAgo,
} from '../../../apps/api/test/support/content-fixtures';
import { createTestApp } from '../../../apps/api/test/support/test-app';

// The SDK as a child site gets it: `pnpm pack` (its prepack builds dist/), the tarball installed with npm into
// a project outside the workspace (offline: its dependencies are packed from the workspace's own copies), a consumer type-checked under NodeNext and Bundler resolution, run by
// Node (no bundler) against a real API on a loopback port, and bundled for a browser with esbuild.
const run = promisify(execFile);
const sdkDir = fileURLToPath(new URL('..', import.meta.url));
const consumerDir = new URL('./consumer/', import.meta.url);
const resolve = createRequire(import.meta.url).resolve;
const tsc = resolve('typescript/bin/tsc');
const esbuild = resolve('esbuild');

const { app, db, close } = await createTestApp();
const project = await mkdtemp(join(tmpdir(), 'newsroom-sdk-consumer-'));
afterAll(async () => {
  await close();
  await rm(project, { recursive: true, force: true });
});
const site = await insertSite(db, 'metro');
await db
  .updateTable('sites')
  .set({ article_url_template: 'https://metro.example.com/news/{slug}' })
  .where('id', '=', site)
  .execute();
const apiKey = (await issueSiteKey(db, site)).key;
for (let n = 1; n <= 5; n++) {
  await insertArticle(db, {
    slug: `story-${n}`,
    title: `Story ${n}`,
    siteIds: [site],
    publishedAt: minutesAgo(n),
  });
}
const draft = await insertArticle(db, {
  slug: 'draft',
  title: 'Draft story',
  status: 'draft',
  siteIds: [site],
});
const previewToken = (await createPreviewLink(db, draft.id, { createdBy: null })).token;
await app.listen({ host: '127.0.0.1', port: 0 });
const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

// pnpm hands its own settings to the scripts it runs as npm_config_*: npm would take them as its own. Only
// the network ones (a registry mirror, a proxy, certificates) and the cache are passed on.
const npmEnv = Object.fromEntries(
  Object.entries(process.env).filter(
    ([name]) =>
      !/^npm_config_/i.test(name) ||
      /registry|proxy|cafile|strict_ssl|_cache$|^npm_config_cache$/i.test(name),
  ),
);

/**
 * The SDK's dependencies and theirs, packed from the copies the workspace installed, as npm `overrides`: the
 * tarball then installs with `npm install --offline`, and this test reaches nothing but loopback.
 */
async function packDependencies(into: string): Promise<Record<string, string>> {
  const packed: Record<string, string> = {};
  const visit = async (nodeModules: string, name: string): Promise<void> => {
    if (packed[name]) return;
    const dir = await realpath(join(nodeModules, name));
    // A copy first: pnpm's store hard-links equal files (index.d.ts, index.d.mts, ...), npm pack writes them
    // as hard-link entries, and npm's install leaves such entries out.
    const copy = join(into, '.packing', name);
    await cp(dir, copy, { recursive: true });
    const { stdout } = await run(
      'npm',
      ['pack', '--offline', '--ignore-scripts', copy, '--pack-destination', into],
      { env: npmEnv, timeout: 60_000 },
    );
    packed[name] = `file:./${stdout.trim().split('\n').at(-1)}`;
    const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
    // pnpm puts a package's own dependencies beside it, in the node_modules folder that holds it.
    const holder = join(dir, name.startsWith('@') ? '../..' : '..');
    for (const dependency of Object.keys(manifest.dependencies ?? {})) await visit(holder, dependency);
  };
  const sdk = JSON.parse(await readFile(join(sdkDir, 'package.json'), 'utf8'));
  for (const dependency of Object.keys(sdk.dependencies ?? {})) {
    await visit(join(sdkDir, 'node_modules'), dependency);
  }
  return packed;
}

const tsconfig = (module: string, moduleResolution: string) =>
  JSON.stringify({
    compilerOptions: {
      target: 'ES2022',
      module,
      moduleResolution,
      lib: ['ES2022', 'DOM', 'DOM.Iterable'],
      types: [],
      strict: true,
      noEmit: true,
      skipLibCheck: false,
    },
    files: ['consumer.ts', 'browser.ts'],
  });

describe('the packed SDK, installed outside the workspace', () => {
  it('installs, type-checks under NodeNext and Bundler, runs in Node and bundles for a browser', async () => {
    await run('pnpm', ['pack', '--pack-destination', project], { cwd: sdkDir, timeout: 60_000 });
    const tarball = (await readdir(project)).find((name) => name.endsWith('.tgz')) as string;
    expect(tarball).toMatch(/^newsroom-sdk-\d+\.\d+\.\d+\.tgz$/);
    const { stdout: listing } = await run('tar', ['-tzf', join(project, tarball)]);
    expect(listing.split('\n')).toEqual(
      expect.arrayContaining([
        'package/dist/index.js',
        'package/dist/index.d.ts',
        'package/LICENSE',
        'package/README.md',
      ]),
    );
    expect(listing).not.toMatch(/package\/src\/|\.test\./);

    const overrides = await packDependencies(project);
    expect(Object.keys(overrides)).toEqual(expect.arrayContaining(['openapi-fetch', 'standardwebhooks']));
    await writeFile(
      join(project, 'package.json'),
      JSON.stringify({
        name: 'child-site',
        private: true,
        type: 'module',
        dependencies: { '@newsroom/sdk': `file:./${tarball}` },
        overrides,
      }),
    );
    for (const file of ['consumer.ts', 'browser.ts'])
      await copyFile(new URL(file, consumerDir), join(project, file));
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund'], {
      cwd: project,
      timeout: 120_000,
      env: npmEnv,
    });

    for (const [name, module, resolution] of [
      ['tsconfig.nodenext.json', 'NodeNext', 'NodeNext'],
      ['tsconfig.bundler.json', 'ESNext', 'Bundler'],
    ] as const) {
      await writeFile(join(project, name), tsconfig(module, resolution));
      // tsc fails on any error, an unused @ts-expect-error included (pages() must refuse the feed's path).
      const check = await run(process.execPath, [tsc, '-p', name], { cwd: project, timeout: 60_000 }).catch(
        (error: { stdout: string }) => ({ stdout: `failed: ${error.stdout}` }),
      );
      expect(check.stdout, name).toBe('');
    }

    const { stdout } = await run(process.execPath, ['consumer.ts'], {
      cwd: project,
      timeout: 30_000,
      env: {
        ...process.env,
        NEWSROOM_URL: baseUrl,
        NEWSROOM_API_KEY: apiKey,
        NEWSROOM_PREVIEW_TOKEN: previewToken,
        NODE_OPTIONS: '',
      },
    });
    expect(JSON.parse(stdout)).toEqual({
      title: 'Story 1',
      preview: 'Draft story',
      missing: 404,
      walked: ['story-1', 'story-2', 'story-3', 'story-4', 'story-5'],
      rss: '<?xml version="1.0" encoding="UTF-8"?>',
      events: ['reset', 'upsert', 'upsert', 'upsert', 'upsert', 'upsert', 'caughtUp'],
      rejected: true,
    });

    const { build } = (await import(esbuild)) as typeof import('esbuild');
    const bundle = await build({
      absWorkingDir: project,
      entryPoints: ['browser.ts'],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      logLevel: 'silent',
    });
    expect(bundle.errors).toEqual([]);
    expect(bundle.outputFiles[0]?.text).not.toMatch(/from ["']node:/);
  }, 180_000);
});
