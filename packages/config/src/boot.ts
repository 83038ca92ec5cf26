import { ConfigError } from './parse-env';

/**
 * Runs `load`, and on a ConfigError prints its one line and exits with status 1:
 * a misconfigured process should stop at once and say why, without a stack trace.
 */
export function loadOrExit<T>(load: () => T): T {
  try {
    return load();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}
