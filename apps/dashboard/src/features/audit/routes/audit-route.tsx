import { getRouteApi } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { AuditPage } from './audit-page';

const route = getRouteApi('/signed-in/admin/audit');

/** /audit?objectType=&objectId=&site=&action=&actor=&from=&to=: the filters live in the URL. */
export function AuditRoute(): ReactNode {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  return <AuditPage search={search} onSearchChange={(next) => navigate({ search: next })} />;
}
