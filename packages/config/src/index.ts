export * from './config';
export { ConfigError } from './parse-env';
export { loadOrExit } from './boot';
export { ensureLocalEnvFile } from './local-env';
