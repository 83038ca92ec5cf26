import { autosaveCollapseMs, normaliseRevisionReason } from './revision-recorder';
import type { RevisionWrite } from './revision-write';

/** A revision a write's own statement records: who and from where, and its time (the autosave collapse's clock). */
export interface StatementRevision {
  write: RevisionWrite;
  at: Date;
}

/**
 * The SQL call that records a write's revision inside the write's statement (`article_revision_record`: the
 * snapshot as articleSnapshotJson builds it, an autosave collapsed into the newest revision), answering its number
 * as `revision_n`. `row` names a whole row of `articles` the statement holds (a CTE's `articles as written`),
 * `hostSites` its host sites (text[]); the other values become parameters through `next`. An edit and an import's
 * insert record their revisions through it, so the database builds every such snapshot one way.
 */
export function revisionRecordCall(
  row: string,
  hostSites: string,
  { write, at }: StatementRevision,
  next: (value: unknown) => string,
): string {
  const values = [
    write.actor.kind,
    write.actor.id,
    write.actor.label,
    write.source,
    normaliseRevisionReason(write.reason),
    at,
    autosaveCollapseMs,
  ];
  return `article_revision_record(${row}, ${hostSites}, ${values.map(next).join(', ')}) as revision_n`;
}
