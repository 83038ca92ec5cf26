import { useQuery } from '@tanstack/react-query';
import { Navigate } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { twoFactorStatusQuery } from '../../../api/account';
import { LoadingState } from '../../../components/states';

/**
 * Around the administrator views: when the policy requires two-factor authentication and the person has
 * none, every view sends them to /account to set it up (the API answers 403 TWO_FACTOR_REQUIRED anyway).
 * A failed status read lets the view through: the view's own requests then say what is wrong.
 */
export function TwoFactorGate({ children }: { children: ReactNode }) {
  const status = useQuery(twoFactorStatusQuery);
  if (status.isPending) return <LoadingState />;
  if (status.data?.required && !status.data.enabled) return <Navigate to="/account" replace />;
  return children;
}
