import { Link } from '@tanstack/react-router';

/**
 * "Audit entries": the Audit view filtered to one object (`{ objectType: 'publisher', objectId }`) or to everything
 * about one site (`{ site }`: the site, its keys, its scoped webhooks).
 */
export function AuditLink({
  filter,
  of,
}: {
  filter: { objectType?: string; objectId?: string; site?: string };
  /** What the entries are of, for screen readers when a page lists several (`site Metro`). */
  of?: string;
}) {
  return (
    <Link to="/audit" search={filter} className="audit-link">
      Audit entries{of && <span className="visually-hidden"> of {of}</span>}
    </Link>
  );
}
