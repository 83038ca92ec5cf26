// @vitest-environment node
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  assertFirstLoadBudget,
  buildDashboard,
  FirstLoadBudgetError,
  firstLoadBudgetBytes,
} from '../scripts/build-dashboard';

// The build `pnpm start` and `pnpm build` run: production code whatever NODE_ENV says (the generated .env
// says development), and a first load over the budget fails it.

vi.setConfig({ testTimeout: 180_000 });

const outDir = mkdtempSync(join(tmpdir(), 'newsroom-dashboard-build-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('the dashboard build', () => {
  it("ships React's production build even when NODE_ENV says development", async () => {
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'development';
    try {
      const result = await buildDashboard(outDir);
      // What it measured is within the budget, and NODE_ENV is left as it was.
      expect(result.firstLoadJsGzip).toBeLessThanOrEqual(firstLoadBudgetBytes);
      expect(process.env.NODE_ENV).toBe('development');
    } finally {
      process.env.NODE_ENV = nodeEnv;
    }
    const scripts = readdirSync(join(outDir, 'assets')).filter((name) => name.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(1);
    for (const name of scripts) {
      const code = readFileSync(join(outDir, 'assets', name), 'utf8');
      // plugin-react's development JSX runtime, and React's development-only checks.
      expect(code, name).not.toContain('jsxDEV');
      expect(code, name).not.toContain('Each child in a list should have a unique');
    }
  });

  it('fails a first load over the budget, naming both sizes', () => {
    const build = { outDir, lazyJsGzip: 0 };
    expect(() => assertFirstLoadBudget({ ...build, firstLoadJsGzip: firstLoadBudgetBytes })).not.toThrow();
    const over = () => assertFirstLoadBudget({ ...build, firstLoadJsGzip: firstLoadBudgetBytes + 1 });
    expect(over).toThrow(FirstLoadBudgetError);
    expect(over).toThrow(/200\.0 KB gzipped, over the 200\.0 KB budget/);
  });
});
