import { createHash } from 'node:crypto';

/** Who did it: a dashboard user (administrator or staff), a publisher account, the system (worker, CLI) or nobody known. */
export type AuditActorType = 'user' | 'publisher' | 'system' | 'anonymous';

export interface AuditActor {
  type: AuditActorType;
  /** The user's id (users and publishers sign in as users); null for the system and for unknown callers. */
  id: string | null;
  /** A readable name at the time (the e-mail, or the e-mail tried on a failed login); never a secret. */
  label: string | null;
}

/**
 * What an appender hands in. Action names are `<object>.<verb>` in snake_case (`site_key.create`, `auth.login_failed`,
 * `user.totp_enable`); route-derived rows use the OpenAPI operationId's words the same way (docs/audit.md).
 */
export interface AuditEventInput {
  actor: AuditActor;
  /** The caller's address (Fastify's request.ip, after TRUST_PROXY); null outside HTTP. */
  address: string | null;
  action: string;
  objectType: string;
  objectId: string | null;
  /** The site the event applies to, when there is one. */
  siteId: string | null;
  /** A short before/after; passed through `auditChanges` (secrets redacted, long values cut) on append. */
  changes: AuditChanges | null;
}

export interface AuditChanges {
  before?: unknown;
  after?: unknown;
}

/** One stored row, as the chain hashes it and as readers get it. */
export interface AuditEvent extends Omit<AuditEventInput, 'changes'> {
  seq: number;
  at: Date;
  changes: AuditChanges | null;
  prevHash: string;
  hash: string;
}

export const genesisHash = '0'.repeat(64);

/** JSON with object keys sorted at every depth: the same row always serialises to the same bytes. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/**
 * sha256(prev_hash || seq || body), hex, where body = `auditRowBody(row)`. The same formula runs in Postgres
 * (audit_append) and here (batch appends, verification).
 */
export function auditRowHash(prevHash: string, row: Omit<AuditEvent, 'prevHash' | 'hash'>): string {
  return createHash('sha256')
    .update(`${prevHash}${row.seq}${auditRowBody(row)}`)
    .digest('hex');
}

/** The canonical JSON of a row's fields other than seq and the hashes. */
export function auditRowBody(row: Omit<AuditEvent, 'prevHash' | 'hash' | 'seq'>): string {
  return canonicalJson({
    at: row.at.toISOString(),
    actorType: row.actor.type,
    actorId: row.actor.id,
    actorLabel: row.actor.label,
    address: row.address,
    action: row.action,
    objectType: row.objectType,
    objectId: row.objectId,
    siteId: row.siteId,
    changes: row.changes,
  });
}

// Any key naming a secret: passwords, key and webhook secrets, tokens, one-time codes.
const secretKey =
  /pass(word)?|secret|token|^key$|api_?key|credential|totp|otp|recovery|hash|cookie|authori[sz]ation/i;
const maxString = 200;
const maxItems = 20;
const maxDepth = 4;

/**
 * What an audit row may keep of a value: secrets replaced by "[redacted]" (whatever their value), strings cut to
 * 200 characters, arrays to 20 items, nesting to 4 levels. An article body becomes its first 200 characters.
 */
export function auditValue(value: unknown, depth = 0): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string')
    // \u0000 cannot be stored in jsonb.
    return (value.length > maxString ? `${value.slice(0, maxString)}…` : value).replaceAll('\u0000', '');
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (value instanceof Date) return value.toISOString();
  if (depth >= maxDepth) return '[…]';
  if (Array.isArray(value)) {
    const kept = value.slice(0, maxItems).map((item) => auditValue(item, depth + 1));
    return value.length > maxItems ? [...kept, `…${value.length - maxItems} more`] : kept;
  }
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      if (item === undefined) continue;
      out[key] = secretKey.test(key) ? '[redacted]' : auditValue(item, depth + 1);
    }
    return out;
  }
  return String(value);
}

/** The changes an audit row keeps (see auditValue), or null when there are none. */
export function auditChanges(changes: AuditChanges | null): AuditChanges | null {
  if (!changes) return null;
  const out: AuditChanges = {};
  if (changes.before !== undefined && changes.before !== null) out.before = auditValue(changes.before);
  if (changes.after !== undefined && changes.after !== null) out.after = auditValue(changes.after);
  return out.before === undefined && out.after === undefined ? null : out;
}

/** The arguments of `audit_append()` for one event (its row as hashed: `at` now, changes trimmed). */
export function auditAppendArguments(event: AuditEventInput, relaxed: boolean) {
  const at = new Date();
  const changes = auditChanges(event.changes);
  const row = { ...event, at, changes };
  const values = [
    at,
    event.actor.type,
    event.actor.id,
    event.actor.label,
    event.address,
    event.action,
    event.objectType,
    event.objectId,
    event.siteId,
    changes === null ? null : JSON.stringify(changes),
    auditRowBody(row),
    relaxed,
  ] as const;
  return { row, values };
}
