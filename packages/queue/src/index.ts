export { createRedisConnection, type RedisRole } from './redis-connection';
