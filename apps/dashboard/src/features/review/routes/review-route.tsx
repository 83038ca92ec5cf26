import { getRouteApi } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { ReviewPage } from './review-page';

const route = getRouteApi('/signed-in/admin/review');

/** /review?publisher=<id>: the filter lives in the URL. */
export function ReviewRoute(): ReactNode {
  const { publisher } = route.useSearch();
  const navigate = route.useNavigate();
  return (
    <ReviewPage
      publisherId={publisher}
      onPublisherChange={(next) => navigate({ search: { publisher: next } })}
    />
  );
}
