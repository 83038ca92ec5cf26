import { ConfigError } from './parse-env';
import { assertSupportedRuntime, UnsupportedRuntimeError } from './runtime';

/**
 * Checks the Node.js version, then runs `load`; on an UnsupportedRuntimeError or a ConfigError prints
 * its one line and exits with status 1: a misconfigured process should stop at once and say why,
 * without a stack trace.
 */
export function loadOrExit<T>(load: () => T): T {
  try {
    assertSupportedRuntime();
    return load();
  } catch (error) {
    if (error instanceof ConfigError || error instanceof UnsupportedRuntimeError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}
