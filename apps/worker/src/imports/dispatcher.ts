import type { FeedImportJob, FeedImportJobName } from '@newsroom/queue';
import { UnrecoverableError } from 'bullmq';
import { fanOutFeedsJob } from './fan-out-feeds.job';
import { fetchFeedJob } from './fetch-feed.job';
import type { JobDeps } from './job-deps';

type Handlers = {
  [N in FeedImportJobName]: (job: FeedImportJob<N>, deps: JobDeps, token?: string) => Promise<unknown>;
};

const handlers: Handlers = {
  'fan-out-feeds': fanOutFeedsJob,
  'fetch-feed': fetchFeedJob,
};

/** The job names this worker handles (a bounded set: metrics label jobs by these only). */
export const handledJobNames = Object.keys(handlers) as FeedImportJobName[];

/** Routes a job to its handler by name. An unknown name is a bug (or a hand-added job): fail it. */
export function dispatcher(deps: JobDeps) {
  // The token is the job's lock token: a job that puts itself back as delayed needs it.
  return async (job: FeedImportJob, token?: string): Promise<unknown> => {
    const handler = handlers[job.name] as
      | ((job: FeedImportJob, deps: JobDeps, token?: string) => Promise<unknown>)
      | undefined;
    if (!handler) throw new UnrecoverableError(`Unknown job name: ${job.name}`);
    return handler(job, deps, token);
  };
}
