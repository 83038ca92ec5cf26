import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { ImportStatus } from '../../../api/publishers';
import {
  finishedImportStates,
  importPollLimitMs,
  importStatusQuery,
  publisherKeys,
  useStartImport,
} from '../../../api/publishers';
import { Button } from '../../../components/button';

/** The job's outcome in words. */
export function describeImport(
  status: ImportStatus | undefined,
  timedOut: boolean,
): { tone: string; text: string } {
  if (!status || !finishedImportStates.has(status.state)) {
    if (timedOut)
      return { tone: 'warning', text: 'The import is still queued or running. Check back later.' };
    return { tone: 'warning', text: status?.state === 'active' ? 'Importing…' : 'Queued…' };
  }
  if (status.state === 'failed' || !status.outcome) {
    const error = status.error;
    const why = error
      ? `${error.message}${error.detail ? ` (${error.detail})` : ''}`
      : 'No reason was given.';
    return { tone: 'error', text: `The import failed: ${why}` };
  }
  const { fetched, inserted, skipped, filtered = 0, waiting = 0, notModified } = status.outcome;
  if (notModified)
    return { tone: 'success', text: 'Done: the feed has not changed since the last fetch (not modified).' };
  const byRules = filtered > 0 ? ` ${filtered} refused by the import rules.` : '';
  const later = waiting > 0 ? ` ${waiting} new items wait for the next fetch (new items per fetch).` : '';
  return {
    tone: 'success',
    text: `Done: ${fetched} items fetched, ${inserted} new articles inserted, ${skipped} skipped (already imported).${byRules}${later}`,
  };
}

/** "Import now": queues a fetch (202), then polls the job until it ends and shows the outcome. */
export function ImportNow({
  publisherId,
  disabledReason,
}: {
  publisherId: string;
  disabledReason: string | null;
}) {
  const queryClient = useQueryClient();
  const start = useStartImport(publisherId);
  const [job, setJob] = useState<{ id: string; startedAt: number } | null>(null);
  const status = useQuery({
    ...importStatusQuery(publisherId, job?.id ?? '', job?.startedAt ?? 0),
    enabled: job !== null,
  });
  const finished = status.data ? finishedImportStates.has(status.data.state) : false;
  const [timedOut, setTimedOut] = useState(false);
  useEffect(() => {
    if (!job) return;
    setTimedOut(false);
    const timer = setTimeout(() => setTimedOut(true), importPollLimitMs);
    return () => clearTimeout(timer);
  }, [job]);

  // The import changed the publisher's fetch state and articles: refresh them when it ends.
  useEffect(() => {
    if (finished) void queryClient.invalidateQueries({ queryKey: publisherKeys.detail(publisherId) });
  }, [finished, publisherId, queryClient]);

  const running = start.isPending || (job !== null && !finished && !timedOut);
  const outcome = job ? describeImport(status.data, timedOut) : null;

  return (
    <div className="stack">
      <div className="row">
        <Button
          variant="primary"
          busy={running}
          disabled={disabledReason !== null}
          onClick={() =>
            start.mutate(undefined, {
              onSuccess: ({ jobId }) => setJob({ id: jobId, startedAt: Date.now() }),
            })
          }
        >
          {running ? 'Importing…' : 'Import now'}
        </Button>
        {disabledReason && <span className="muted">{disabledReason}</span>}
      </div>
      {status.isError && (
        <div className="alert alert-error" role="alert">
          The import's state could not be read.
        </div>
      )}
      {outcome && (
        <div className={`alert alert-${outcome.tone}`} role="status" aria-live="polite">
          {outcome.text}
        </div>
      )}
    </div>
  );
}
