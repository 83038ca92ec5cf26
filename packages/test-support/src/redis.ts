import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';

/** Redis URL of the run, plus a key prefix of this file's own, so queues never meet across files. */
export function testRedis(): { url: string; prefix: string } {
  return { url: inject('redisUrl'), prefix: `test-${randomBytes(4).toString('hex')}` };
}
