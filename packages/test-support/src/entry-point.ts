import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '../../..');

/**
 * The working directory of a test that runs one of our entry points (server.ts, main.ts, a bundle, a CLI) in
 * its own process: an empty folder. Entry points load `.env` from their working directory and the API
 * serves DASHBOARD_DIST relative to it, so from the checkout they would pick up what `pnpm start` leaves
 * there (its generated .env, apps/dashboard/dist) and the suite would depend on what ran before it.
 */
export const entryPointCwd = mkdtempSync(join(tmpdir(), 'newsroom-entry-point-'));

/** `node --import <this>` runs TypeScript with tsx from any working directory (a bare `tsx` resolves from it). */
export const tsxLoader = pathToFileURL(resolve(root, 'node_modules/tsx/dist/loader.mjs')).href;
