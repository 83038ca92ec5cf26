import type { Db } from '@newsroom/domain';
import type { FeedFetcher } from '@newsroom/feeds';
import type { FeedImportQueue } from '@newsroom/queue';
import type { Logger } from 'pino';

/** What the jobs run with; the worker's composition root builds it once. */
export interface JobDeps {
  db: Db;
  queue: FeedImportQueue;
  fetcher: FeedFetcher;
  logger: Logger;
  now(): Date;
}
