/** Who made a write: a person, a publisher's feed, an API client, the scheduler, or the system itself. */
export type RevisionActorKind = 'user' | 'feed' | 'api-client' | 'scheduler' | 'system';

/** Where a write came from. */
export type RevisionSource =
  | 'editor'
  | 'autosave'
  | 'api'
  | 'import'
  | 'review'
  | 'bulk'
  | 'schedule'
  | 'restore';

export interface RevisionActor {
  kind: RevisionActorKind;
  /** The user's, publisher's or client's id; null for the system. */
  id: string | null;
  /** What the History panel shows: an e-mail, a publisher's name, "scheduler". */
  label: string;
}

/**
 * Who and what a write to an article is, passed down from the edge (a route, a job) to the domain's write
 * functions, which record it with the revision in the write's own transaction.
 */
export interface RevisionWrite {
  actor: RevisionActor;
  source: RevisionSource;
  /** Optional, 1..500 characters (a review decision's reason, a restore's reason). */
  reason?: string | null;
}

/** A write nobody in particular made (scripts, tests); callers at an edge always say who they are. */
export const systemWrite: RevisionWrite = {
  actor: { kind: 'system', id: null, label: 'system' },
  source: 'api',
};

/** A write the scheduler makes when a scheduled action or a release runs. */
export const schedulerWrite: RevisionWrite = {
  actor: { kind: 'scheduler', id: null, label: 'scheduler' },
  source: 'schedule',
};

/** The same write, from another source (a bulk action's items, a review decision). */
export function withSource(write: RevisionWrite, source: RevisionSource): RevisionWrite {
  return { ...write, source };
}
