export { createTestDatabase, type TestDatabase } from './database';
export { entryPointCwd, tsxLoader } from './entry-point';
export * from './feed-server';
export { type PrivateRedis, startPrivateRedis } from './private-redis';
export { type MetricSample, parsePrometheusText, type Scrape } from './prometheus-text';
export { testRedis } from './redis';
export { isListening } from './services';
export * from './streamed-feed';
export { hostAndPort, startTcpProxy, type TcpProxy, throughProxy } from './tcp-proxy';
