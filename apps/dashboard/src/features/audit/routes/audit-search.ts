import type { AuditFilters } from '../../../api/audit';

// The /audit view's URL state: its filters, so a link ("Audit entries" of a publisher) opens it pre-filtered.

export type AuditSearch = AuditFilters;

const text = (value: unknown, max: number): string | undefined =>
  typeof value === 'string' && value.trim() ? value.trim().slice(0, max) : undefined;
const uuid = (value: unknown): string | undefined =>
  typeof value === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)
    ? value
    : undefined;
const instant = (value: unknown): string | undefined =>
  typeof value === 'string' && !Number.isNaN(Date.parse(value)) && /^\d{4}-\d{2}-\d{2}T/.test(value)
    ? value
    : undefined;

export function validateAuditSearch(search: Record<string, unknown>): AuditSearch {
  return {
    actor: uuid(search.actor),
    action: text(search.action, 100),
    objectType: text(search.objectType, 50),
    objectId: text(search.objectId, 100),
    site: uuid(search.site),
    from: instant(search.from),
    to: instant(search.to),
  };
}
