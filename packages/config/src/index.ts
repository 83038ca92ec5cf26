export * from './api-config';
export { loadOrExit } from './boot';
export * from './cli-config';
export type { CommonConfig, DatabaseTimeouts } from './common-config';
export { ensureLocalEnvFile, readLocalEnvFile } from './local-env';
export { ConfigError } from './parse-env';
export { assertSupportedRuntime, MINIMUM_NODE_MAJOR, UnsupportedRuntimeError } from './runtime';
export type { RateLimit } from './setting-types';
export * from './worker-config';
