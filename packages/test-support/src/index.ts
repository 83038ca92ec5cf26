export { createTestDatabase, type TestDatabase } from './database';
export * from './feed-server';
export { testRedis } from './redis';
export { isListening } from './services';
export * from './streamed-feed';
