export { createTestDatabase, type TestDatabase } from './database';
export * from './feed-server';
export { type PrivateRedis, startPrivateRedis } from './private-redis';
export { testRedis } from './redis';
export { isListening } from './services';
export * from './streamed-feed';
