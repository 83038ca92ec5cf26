// @vitest-environment node
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The dashboard's import rules, read from the source (as bulletproof-react's `import/no-restricted-paths`
// does): a feature uses the shared layers and its own folder, never another feature; the shared layers
// never reach up into features or the app; only the query modules talk to the API client; and the
// browser code imports only the packages it ships with (no @newsroom/* workspace package).

const root = resolve(import.meta.dirname, '..');
const src = join(root, 'src');
const { dependencies } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Every module a file names: static imports and re-exports, and lazy `import()`. */
function specifiersOf(code: string): string[] {
  const found = [
    ...code.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s*'([^']+)'/gm),
    ...code.matchAll(/^\s*import\s*'([^']+)'/gm),
    ...code.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g),
  ];
  return found.map((match) => match[1] as string);
}

/** The layer a source path belongs to: `features/<name>` for a feature, else its top folder under src. */
function layerOf(path: string): string {
  const [top, name] = relative(src, path).split('/');
  if (top === 'features') return `features/${name}`;
  return top?.match(/\.tsx?$/) ? 'main' : (top ?? '');
}

/** The layers each layer may import (besides itself). */
const allowed: Record<string, readonly string[]> = {
  generated: [],
  lib: ['generated'],
  api: ['lib', 'generated'],
  components: ['lib', 'api'],
  feature: ['components', 'lib', 'api', 'styles'],
  app: ['components', 'lib', 'api', 'styles', 'feature'],
  main: ['app', 'styles'],
};

const kindOf = (layer: string) => (layer.startsWith('features/') ? 'feature' : layer);

interface Violation {
  file: string;
  imports: string;
  rule: string;
}

function violationsOf(file: string): Violation[] {
  const from = layerOf(file);
  const rel = relative(root, file);
  return specifiersOf(readFileSync(file, 'utf8')).flatMap((specifier): Violation[] => {
    if (!specifier.startsWith('.')) {
      const name = specifier.startsWith('@')
        ? specifier.split('/').slice(0, 2).join('/')
        : specifier.split('/')[0];
      if (name && name in dependencies) return [];
      return [{ file: rel, imports: specifier, rule: 'a package the dashboard does not depend on' }];
    }
    const target = resolve(dirname(file), specifier);
    const to = layerOf(target);
    if (to === from) return [];
    // The API client is for the query modules: a view asks them, never the client itself.
    if (relative(src, target).startsWith('lib/api-client') && kindOf(from) !== 'api')
      return [{ file: rel, imports: specifier, rule: 'only src/api/ calls the API client' }];
    if (kindOf(from) === 'feature' && kindOf(to) === 'feature')
      return [{ file: rel, imports: specifier, rule: "another feature's internals" }];
    if ((allowed[kindOf(from)] ?? []).includes(kindOf(to))) return [];
    return [{ file: rel, imports: specifier, rule: `${kindOf(from)} may not import ${kindOf(to)}` }];
  });
}

describe('the import rules of the dashboard', () => {
  const files = sourceFiles(src);

  it('reads every source file and its imports', () => {
    expect(files.length).toBeGreaterThan(100);
    const edges = files.flatMap((file) => specifiersOf(readFileSync(file, 'utf8')));
    expect(edges.length).toBeGreaterThan(files.length);
  });

  it('holds for every file of src/', () => {
    expect(files.flatMap(violationsOf)).toEqual([]);
  });

  it('keeps every feature to the shared layers and its own folder', () => {
    const features = new Set(files.map(layerOf).filter((layer) => layer.startsWith('features/')));
    expect([...features].sort()).toEqual(
      [
        'account',
        'articles',
        'audit',
        'auth',
        'publisher-self',
        'publishers',
        'recovery',
        'reports',
        'review',
        'schedule',
        'sites',
        'team',
        'webhooks',
      ].map((name) => `features/${name}`),
    );
  });
});

describe('how the rules read an import', () => {
  it('finds static, type-only, side-effect, re-exported and lazy imports', () => {
    const code = [
      "import { a } from './a';",
      "import type { B } from '../b';",
      "import './styles.css';",
      "export { c } from './c';",
      "const View = lazy(() => import('../features/x/routes/page'));",
      "import {\n  d,\n  e,\n} from './d';",
    ].join('\n');
    expect(specifiersOf(code)).toEqual([
      './a',
      '../b',
      './c',
      './d',
      './styles.css',
      '../features/x/routes/page',
    ]);
  });

  it('names layers by their folder, a feature by its own', () => {
    expect(layerOf(join(src, 'features/sites/components/site-card.tsx'))).toBe('features/sites');
    expect(layerOf(join(src, 'api/sites.ts'))).toBe('api');
    expect(layerOf(join(src, 'lib/api-client.ts'))).toBe('lib');
    expect(layerOf(join(src, 'main.tsx'))).toBe('main');
  });

  it('reports a feature reaching into another one, and a shared layer reaching up', () => {
    const check = (from: string, to: string) => {
      const kind = (layer: string) => kindOf(layerOf(join(src, layer)));
      const [a, b] = [kind(from), kind(to)];
      return a === 'feature' && b === 'feature' ? false : (allowed[a] ?? []).includes(b);
    };
    expect(check('features/webhooks/components/x.tsx', 'features/sites/api/sites.ts')).toBe(false);
    expect(check('features/webhooks/components/x.tsx', 'api/sites.ts')).toBe(true);
    expect(check('api/sites.ts', 'features/sites/routes/sites-page.tsx')).toBe(false);
    expect(check('lib/api-client.ts', 'api/sites.ts')).toBe(false);
    expect(check('components/feed-health.tsx', 'app/router.tsx')).toBe(false);
    expect(check('app/router.tsx', 'features/sites/routes/sites-page.tsx')).toBe(true);
  });
});
