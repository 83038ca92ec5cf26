export * from './feed-import.contract';
export * from './feed-import.queue';
export * from './job-ids';
export {
  createRedisConnection,
  type RedisClient,
  type RedisRole,
  type RedisTarget,
} from './redis-connection';
export * from './webhook-delivery.queue';
