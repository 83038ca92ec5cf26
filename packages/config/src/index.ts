export { loadOrExit } from './boot';
export * from './config';
export { ensureLocalEnvFile } from './local-env';
export { ConfigError } from './parse-env';
