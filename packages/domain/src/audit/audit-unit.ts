import { functionCallText } from '../db/held-statements';
import { isDatabaseUnavailable } from '../db/pg-errors';
import { type InsertedRow, runUnitOfWork, type UnitOfWork } from '../db/unit-of-work';
import { AuditNotWrittenError } from '../errors';
import { type AuditEventInput, auditAppendArguments } from './audit-event';

// Where an object type's rows live, when the table is not simply its plural.
const tableOf: Record<string, string> = { site_key: 'site_api_keys', webhook: 'webhook_endpoints' };

/**
 * The audit row one change owes (a unit of work, e.g. one API operation): the first transaction of the unit
 * that writes appends it as its last statement, in the round trip of its COMMIT (db/unit-of-work-driver.ts), so
 * the row and the change commit together or not at all. A unit that commits no write leaves it to its caller
 * (`written` stays false).
 */
export class PendingAudit implements UnitOfWork {
  /** The table whose first inserted row is the created object, when `event.objectId` is undefined. */
  readonly createdIn: string | null;
  /** The object id the row was written with, once written. */
  objectId: string | null | undefined;
  written = false;

  /** `event.objectId` undefined: the object the change creates (`site` → `sites`, `site_key` → `site_api_keys`). */
  constructor(readonly event: Omit<AuditEventInput, 'objectId'> & { objectId: string | null | undefined }) {
    this.createdIn =
      event.objectId === undefined ? (tableOf[event.objectType] ?? `${event.objectType}s`) : null;
  }

  get owed() {
    return !this.written;
  }

  /**
   * `select audit_append(…)`: parameters cannot go with several statements in one string, so the values are
   * quoted literals (held-statements' functionCallText). An error in it skips the COMMIT after it; the caller rolls back.
   */
  close(inserted: readonly InsertedRow[]): string {
    const objectId =
      this.event.objectId !== undefined
        ? this.event.objectId
        : (inserted.find((row) => row.table === this.createdIn)?.id ?? null);
    this.written = true;
    this.objectId = objectId;
    // A site created by the change is the site the row applies to (its audit link filters by site).
    const appliesTo = this.event.siteId ?? (this.event.objectType === 'site' ? objectId : null);
    const { values } = auditAppendArguments({ ...this.event, objectId, siteId: appliesTo }, false);
    const [at, actorType, actorId, actorLabel, address, action, objectType, id, siteId, changes, body] =
      values;
    return functionCallText('audit_append', [
      [at, 'timestamptz'],
      [actorType, 'text'],
      [actorId, 'uuid'],
      [actorLabel, 'text'],
      [address, 'text'],
      [action, 'text'],
      [objectType, 'text'],
      [id, 'text'],
      [siteId, 'uuid'],
      [changes, 'jsonb'],
      [body, 'text'],
      [false, 'boolean'],
    ]);
  }

  reopen(error: unknown): unknown {
    this.written = false;
    this.objectId = undefined;
    return isDatabaseUnavailable(error) ? error : new AuditNotWrittenError(this.event.action, error);
  }
}

/** A unit's pending row (see PendingAudit). */
export function pendingAudit(event: PendingAudit['event']): PendingAudit {
  return new PendingAudit(event);
}

/** Runs `change` with `pending` as the audit row its first committed write carries. */
export function runAudited<T>(pending: PendingAudit, change: () => T): T {
  return runUnitOfWork(pending, change);
}

/**
 * Runs `change` as one audited unit: its row commits with its first writing transaction, or, when it wrote
 * nothing (an unknown e-mail, a no-op), is appended alone afterwards by `appendAlone`. A failing change writes none.
 */
export async function auditedChange<T>(
  event: AuditEventInput,
  change: () => Promise<T>,
  appendAlone: (event: AuditEventInput) => Promise<unknown>,
): Promise<T> {
  const pending = pendingAudit(event);
  const result = await runAudited(pending, change);
  if (!pending.written) await appendAlone(event);
  return result;
}
