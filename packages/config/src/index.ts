export { loadOrExit } from './boot';
export * from './config';
export { ensureLocalEnvFile, readLocalEnvFile } from './local-env';
export { ConfigError } from './parse-env';
