import { AsyncLocalStorage } from 'node:async_hooks';
import type { AuditEventInput } from './audit-event';

/**
 * The audit row one change owes (a unit of work, e.g. one API operation): the first transaction of the unit that
 * writes appends it as its last statement before COMMIT (audit-on-commit.ts), so the row and the change commit
 * together or not at all. A unit that commits no write leaves it to its caller (`written` stays false).
 */
export interface PendingAudit {
  /** `objectId: undefined`: the object is the one the change creates (the id of its first inserted row). */
  readonly event: Omit<AuditEventInput, 'objectId'> & { objectId: string | null | undefined };
  /** The table whose first inserted row is the created object (`site_key` → `site_keys`). */
  readonly createdIn: string | null;
  /** The object id the row was written with, once written. */
  objectId?: string | null;
  written: boolean;
}

const units = new AsyncLocalStorage<PendingAudit>();

/** Runs `change` with `pending` as the audit row its first committed write carries. */
export function runAudited<T>(pending: PendingAudit, change: () => T): T {
  return units.run(pending, change);
}

/** The audit row the running unit still owes, if any. */
export function owedAudit(): PendingAudit | undefined {
  const pending = units.getStore();
  return pending && !pending.written ? pending : undefined;
}

// Where an object type's rows live, when the table is not simply its plural.
const tableOf: Record<string, string> = { site_key: 'site_api_keys', webhook: 'webhook_endpoints' };

/**
 * A unit's pending row. `event.objectId` undefined: the object is the one the change creates, the first row it
 * inserts into the object type's table (`site` → `sites`, `site_key` → `site_api_keys`).
 */
export function pendingAudit(event: PendingAudit['event']): PendingAudit {
  return {
    event,
    createdIn: event.objectId === undefined ? (tableOf[event.objectType] ?? `${event.objectType}s`) : null,
    written: false,
  };
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
