/**
 * The feed-import job contract, shared by the producer (API) and the consumer (worker):
 * queue name -> job name -> payload. Payloads carry ids only, never URLs, tokens or secrets:
 * the worker reads everything else fresh from the database when the job runs.
 */
export const feedImportQueueName = 'feed-import';

export interface FeedImportJobs {
  /** Produced by the job scheduler: enqueues one `fetch-feed` job per importable publisher. */
  'fan-out-feeds': Record<string, never>;
  /**
   * Fetches one publisher's feed and imports its new items. `requestId`: the X-Request-Id of the API
   * request that asked for it (manual fetches), so its log lines can be followed into the worker's.
   */
  'fetch-feed': { publisherId: string; trigger: FetchTrigger; requestId?: string };
}

/** Why a fetch runs: the hourly schedule, or an administrator asking for it now. */
export type FetchTrigger = 'schedule' | 'manual';

export type FeedImportJobName = keyof FeedImportJobs;
export type FeedImportJobData = FeedImportJobs[FeedImportJobName];

/**
 * Id of the one job scheduler that drives the hourly import; fixed, so every upsert updates the same
 * one. Named after the job it produces (BullMQ types scheduler ids as job names).
 */
export const feedImportSchedulerId = 'fan-out-feeds' satisfies FeedImportJobName;
