export { createTestDatabase, type TestDatabase } from './database';
export { testRedis } from './redis';
export { isListening } from './services';
export * from './feed-server';
