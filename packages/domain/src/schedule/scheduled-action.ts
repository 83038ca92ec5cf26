import type { ScheduledActionKind, ScheduleStatus } from '../db/tables';
import { DomainValidationError } from '../errors';

export type { ScheduledActionKind, ScheduleStatus };
export const scheduledActionKinds = [
  'publish',
  'unpublish',
] as const satisfies readonly ScheduledActionKind[];
export const scheduleStatuses = [
  'scheduled',
  'done',
  'failed',
  'cancelled',
] as const satisfies readonly ScheduleStatus[];

/** A publish or unpublish of one article at a time (alone, or as part of a release). */
export interface ScheduledAction {
  id: string;
  articleId: string;
  /** The article's title and slug now; null once it was deleted. */
  articleTitle: string | null;
  articleSlug: string | null;
  kind: ScheduledActionKind;
  dueAt: Date;
  status: ScheduleStatus;
  releaseId: string | null;
  releaseName: string | null;
  /** The user who scheduled it (null: the system, e.g. an embargo on a published article, or a deleted user). */
  createdBy: string | null;
  createdByEmail: string | null;
  /** When it ran (done or failed), by the scheduler's clock. */
  ranAt: Date | null;
  /** ranAt - dueAt, milliseconds: how late it ran. */
  latenessMs: number | null;
  failureReason: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Several actions that go live together, in one transaction: readers never see half of it. */
export interface Release {
  id: string;
  name: string;
  dueAt: Date;
  status: ScheduleStatus;
  createdBy: string | null;
  createdByEmail: string | null;
  ranAt: Date | null;
  latenessMs: number | null;
  failureReason: string | null;
  actions: ScheduledAction[];
  createdAt: Date;
  updatedAt: Date;
}

/** How far ahead an action may be scheduled: five years. */
export const maxScheduleAheadMs = 5 * 366 * 24 * 3600 * 1000;
/** A due time this far in the past is still accepted (runs at once): clocks of browsers and servers differ. */
export const dueInPastToleranceMs = 60_000;
/** At most this many actions in one release (one transaction). */
export const maxReleaseActions = 200;

/** Refuses a due time too far in the past or more than five years ahead (400 INVALID_DUE_AT). */
export function assertDueAtAllowed(dueAt: Date, now: Date): void {
  if (Number.isNaN(dueAt.getTime())) throw new DomainValidationError('INVALID_DUE_AT', 'dueAt is not a time');
  if (dueAt.getTime() < now.getTime() - dueInPastToleranceMs) {
    throw new DomainValidationError('INVALID_DUE_AT', `dueAt ${dueAt.toISOString()} is in the past`);
  }
  if (dueAt.getTime() > now.getTime() + maxScheduleAheadMs) {
    throw new DomainValidationError('INVALID_DUE_AT', 'dueAt is more than five years ahead');
  }
}
