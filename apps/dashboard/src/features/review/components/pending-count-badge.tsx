import { useQuery } from '@tanstack/react-query';
import { pendingCountQuery } from '../../../api/review';

/** The number of pending articles, next to "Review" in the navigation (nothing while unknown or zero). */
export function PendingCountBadge() {
  const count = useQuery(pendingCountQuery).data;
  if (!count) return null;
  return (
    <span className="badge badge-warning nav-badge">
      <span className="visually-hidden">, </span>
      {count.toLocaleString()}
      <span className="visually-hidden"> pending</span>
    </span>
  );
}
