import { formatWithZone } from '../../../lib/time-zone';

/** An embargo in a list: not on any site before this time. */
export function EmbargoBadge({ until }: { until: string }) {
  return (
    <span className="badge badge-warning embargo-badge" title="Appears on no site before this time">
      Embargoed until {formatWithZone(until)}
    </span>
  );
}
