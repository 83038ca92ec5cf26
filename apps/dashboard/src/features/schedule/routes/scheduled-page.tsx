import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import {
  type Release,
  releasesQuery,
  type ScheduledAction,
  scheduledActionsQuery,
  useCancelAction,
  useCancelRelease,
  useRescheduleAction,
  useRescheduleRelease,
} from '../../../api/schedule';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { PageHeader } from '../../../components/page-header';
import { EmptyState, ErrorState, LoadingState } from '../../../components/states';
import { Badge } from '../../../components/status-badge';
import { useToast } from '../../../components/toaster';
import { errorMessage } from '../../../lib/api-error';
import { dayOf, formatWithZone, fromLocalInput, localTimeZone, toLocalInput } from '../../../lib/time-zone';
import './scheduled-page.css';

/** One row of the view: a lone action, or a release with its actions. */
type Entry =
  | { kind: 'action'; dueAt: string; action: ScheduledAction }
  | { kind: 'release'; dueAt: string; release: Release };

const statusTone = { scheduled: 'neutral', done: 'success', failed: 'danger', cancelled: 'neutral' } as const;

/** /scheduled: upcoming actions and releases by day (and the last week's failures), rescheduled or cancelled here. */
export function ScheduledPage() {
  const from = useMemo(() => new Date(Date.now() - 7 * 24 * 3600_000).toISOString(), []);
  const actions = useQuery(scheduledActionsQuery({ from, status: 'scheduled,failed' }));
  const releases = useQuery(releasesQuery({ from, status: 'scheduled,failed' }));
  const zone = localTimeZone();

  const days = useMemo(() => {
    const entries: Entry[] = [
      ...(actions.data ?? [])
        .filter((action) => action.releaseId === null)
        .map((action) => ({ kind: 'action' as const, dueAt: action.dueAt, action })),
      ...(releases.data ?? []).map((release) => ({
        kind: 'release' as const,
        dueAt: release.dueAt,
        release,
      })),
    ].sort((a, b) => a.dueAt.localeCompare(b.dueAt));
    const grouped = new Map<string, { heading: string; entries: Entry[] }>();
    for (const entry of entries) {
      const { key, heading } = dayOf(entry.dueAt);
      const day = grouped.get(key) ?? { heading, entries: [] };
      day.entries.push(entry);
      grouped.set(key, day);
    }
    return [...grouped.entries()];
  }, [actions.data, releases.data]);
  const failures = [...(actions.data ?? []), ...(releases.data ?? [])].filter(
    (x) => x.status === 'failed',
  ).length;

  return (
    <>
      <PageHeader title="Scheduled">
        <p className="muted">
          Upcoming publishes, unpublishes and releases by day, times in {zone}. Failed ones of the last week
          stay here until dealt with.
        </p>
      </PageHeader>
      <div className="stack">
        {failures > 0 && (
          <div className="alert alert-error" role="alert">
            {failures === 1 ? '1 scheduled action failed' : `${failures} scheduled actions failed`}: see the
            reasons below.
          </div>
        )}
        {actions.isPending || releases.isPending ? (
          <LoadingState label="Loading the schedule…" />
        ) : actions.isError ? (
          <ErrorState error={actions.error} onRetry={() => actions.refetch()} />
        ) : releases.isError ? (
          <ErrorState error={releases.error} onRetry={() => releases.refetch()} />
        ) : days.length === 0 ? (
          <EmptyState>Nothing scheduled. Schedule a publish from an article&apos;s editor.</EmptyState>
        ) : (
          <div className="stack">
            {days.map(([key, day]) => (
              <section key={key} className="card stack schedule-day" aria-label={day.heading}>
                <h2>{day.heading}</h2>
                <ul className="stack schedule-entries">
                  {day.entries.map((entry) =>
                    entry.kind === 'action' ? (
                      <ActionRow key={entry.action.id} action={entry.action} zone={zone} />
                    ) : (
                      <ReleaseRow key={entry.release.id} release={entry.release} zone={zone} />
                    ),
                  )}
                </ul>
              </section>
            ))}
          </div>
        )}
      </div>
    </>
  );
}

function ActionRow({ action, zone }: { action: ScheduledAction; zone: string }) {
  const reschedule = useRescheduleAction();
  const cancel = useCancelAction();
  return (
    <EntryRow
      status={action.status}
      dueAt={action.dueAt}
      failureReason={action.failureReason}
      zone={zone}
      title={
        <>
          {action.kind === 'publish' ? 'Publish' : 'Unpublish'}{' '}
          {action.articleTitle ? (
            <Link to="/articles/$id" params={{ id: action.articleId }}>
              {action.articleTitle}
            </Link>
          ) : (
            <em>a deleted article</em>
          )}
        </>
      }
      name={action.articleTitle ?? 'deleted article'}
      onReschedule={(dueAt) => reschedule.mutateAsync({ id: action.id, dueAt })}
      onCancel={() => cancel.mutateAsync(action.id)}
    />
  );
}

function ReleaseRow({ release, zone }: { release: Release; zone: string }) {
  const reschedule = useRescheduleRelease();
  const cancel = useCancelRelease();
  return (
    <EntryRow
      status={release.status}
      dueAt={release.dueAt}
      failureReason={release.failureReason}
      zone={zone}
      title={
        <>
          Release <strong>{release.name}</strong> ({release.actions.length} articles:{' '}
          {release.actions.map((a) => `${a.kind} ${a.articleTitle ?? 'deleted article'}`).join(', ')})
        </>
      }
      name={`release ${release.name}`}
      onReschedule={(dueAt) => reschedule.mutateAsync({ id: release.id, dueAt })}
      onCancel={() => cancel.mutateAsync(release.id)}
    />
  );
}

function EntryRow({
  status,
  dueAt,
  failureReason,
  zone,
  title,
  name,
  onReschedule,
  onCancel,
}: {
  status: ScheduledAction['status'];
  dueAt: string;
  failureReason: string | null;
  zone: string;
  title: React.ReactNode;
  name: string;
  onReschedule(dueAt: string): Promise<unknown>;
  onCancel(): Promise<unknown>;
}) {
  const toast = useToast();
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(() => toLocalInput(new Date(dueAt)));
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [busy, setBusy] = useState(false);
  const run = async (work: () => Promise<unknown>, success: string) => {
    setBusy(true);
    try {
      await work();
      toast({ kind: 'success', title: success });
      setEditing(false);
    } catch (error) {
      toast({ kind: 'error', title: errorMessage(error) });
    } finally {
      setBusy(false);
    }
  };
  const parsed = fromLocalInput(value);
  return (
    <li className={`schedule-entry schedule-${status}`}>
      <div className="row schedule-entry-head">
        <time dateTime={dueAt}>{formatWithZone(dueAt)}</time>
        <Badge tone={statusTone[status]}>{status}</Badge>
      </div>
      <div>{title}</div>
      {status === 'failed' && <p className="schedule-reason">Failed: {failureReason}</p>}
      {status === 'scheduled' && (
        <div className="row schedule-entry-actions">
          {editing ? (
            <>
              <input
                type="datetime-local"
                step={1}
                value={value}
                onChange={(event) => setValue(event.target.value)}
                aria-label={`New time for ${name} (${zone})`}
              />
              <Button
                variant="primary"
                busy={busy}
                disabled={!parsed}
                onClick={() =>
                  parsed && void run(() => onReschedule(parsed), `Moved to ${formatWithZone(parsed)}`)
                }
              >
                Save time
              </Button>
              <Button onClick={() => setEditing(false)}>Keep</Button>
            </>
          ) : (
            <>
              <Button onClick={() => setEditing(true)} aria-label={`Reschedule ${name}`}>
                Reschedule
              </Button>
              <Button variant="danger" onClick={() => setConfirmCancel(true)} aria-label={`Cancel ${name}`}>
                Cancel
              </Button>
            </>
          )}
        </div>
      )}
      <ConfirmDialog
        open={confirmCancel}
        onOpenChange={setConfirmCancel}
        title="Cancel this scheduled change?"
        confirmLabel="Cancel it"
        busy={busy}
        onConfirm={() => {
          setConfirmCancel(false);
          void run(onCancel, 'Cancelled');
        }}
      >
        <p>
          Nothing will happen to {name} at {formatWithZone(dueAt)}. The record stays, marked cancelled.
        </p>
      </ConfirmDialog>
    </li>
  );
}
