import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const PATCHES_DIR = resolve(import.meta.dirname, '../../../patches');

// Node's CommonJS loader, used the way require() uses it; these members are not in its typings.
interface LoadableModule {
  filename: string;
  paths: string[];
  exports: unknown;
  require(id: string): unknown;
  _compile(code: string, filename: string): void;
}
const ModuleClass = Module as unknown as {
  new (id: string): LoadableModule;
  _nodeModulePaths(dir: string): string[];
};

/**
 * The source of an installed package file as it was before its pnpm patch (`patches/<patch>`, which
 * pnpm applied at install): the installed text with the patch reversed by `git apply -R`.
 * `file` is the installed file's absolute path, `pathInPackage` its path inside the package as the patch
 * names it (e.g. `lib/feedparser.js`). Throws if the installed file is not exactly the patched one.
 */
export function unpatchedSource(file: string, pathInPackage: string, patch: string): string {
  const workDir = mkdtempSync(join(tmpdir(), 'unpatched-'));
  try {
    const copy = join(workDir, pathInPackage);
    mkdirSync(dirname(copy), { recursive: true });
    writeFileSync(copy, readFileSync(file));
    execFileSync('git', ['apply', '-R', '--include', pathInPackage, join(PATCHES_DIR, patch)], {
      cwd: workDir,
    });
    return readFileSync(copy, 'utf8');
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

/**
 * A separate copy of a CommonJS module compiled from `source` under the installed file's own path, so
 * its require() calls resolve to the same modules the installed one loads, except the ids in `replace`
 * (as the module writes them, e.g. `'./utils'`), which get the value given instead.
 */
export function compileModule(file: string, source: string, replace: Record<string, unknown> = {}): unknown {
  const copy = new ModuleClass(file);
  copy.filename = file;
  copy.paths = ModuleClass._nodeModulePaths(dirname(file));
  const load = copy.require.bind(copy);
  copy.require = (id) => (Object.hasOwn(replace, id) ? replace[id] : load(id));
  copy._compile(source, file);
  return copy.exports;
}

/** The unpatched copy of one file of a patched CommonJS package (unpatchedSource + compileModule). */
export function loadUnpatched(
  file: string,
  pathInPackage: string,
  patch: string,
  replace: Record<string, unknown> = {},
): unknown {
  return compileModule(file, unpatchedSource(file, pathInPackage, patch), replace);
}

/**
 * An unpatched copy of an ES module package: the installed package's `dir` (its root) copied to a
 * temporary directory, `patch` reversed there, and its `entry` (e.g. `dist/Parser.js`) imported from the
 * copy. The package's own dependencies resolve to the installed ones (pnpm keeps them next to it, which
 * the copy links to). Returns the module and a function that removes the copy.
 */
export async function importUnpatched(
  dir: string,
  entry: string,
  patch: string,
): Promise<{ module: unknown; remove(): void }> {
  const workDir = mkdtempSync(join(tmpdir(), 'unpatched-esm-'));
  const copy = join(workDir, 'package');
  try {
    cpSync(dir, copy, { recursive: true, dereference: true });
    // In pnpm's layout a package's dependencies are its siblings: <store>/node_modules/{package,deps}.
    symlinkSync(dirname(dir), join(workDir, 'node_modules'), 'dir');
    execFileSync('git', ['apply', '-R', join(PATCHES_DIR, patch)], { cwd: copy });
    const module: unknown = await import(pathToFileURL(join(copy, entry)).href);
    return { module, remove: () => rmSync(workDir, { recursive: true, force: true }) };
  } catch (error) {
    rmSync(workDir, { recursive: true, force: true });
    throw error;
  }
}
