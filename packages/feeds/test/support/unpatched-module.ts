import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const PATCHES_DIR = resolve(import.meta.dirname, '../../../../patches');

// Node's CommonJS loader, used the way require() uses it; these members are not in its typings.
interface LoadableModule {
  filename: string;
  paths: string[];
  exports: unknown;
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
 * its require() calls resolve to the same modules the installed one loads.
 */
export function compileModule(file: string, source: string): unknown {
  const copy = new ModuleClass(file);
  copy.filename = file;
  copy.paths = ModuleClass._nodeModulePaths(dirname(file));
  copy._compile(source, file);
  return copy.exports;
}
