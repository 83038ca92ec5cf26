export { loadOrExit } from './boot';
export * from './config';
export { ensureLocalEnvFile, readLocalEnvFile } from './local-env';
export { ConfigError } from './parse-env';
export { assertSupportedRuntime, MINIMUM_NODE_MAJOR, UnsupportedRuntimeError } from './runtime';
