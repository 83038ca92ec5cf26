import { getRouteApi } from '@tanstack/react-router';
import { ArticlesPage } from './articles-page';

/** /articles, with its search in the URL (a lazy chunk of the router). */
export function ArticlesRoute() {
  const route = getRouteApi('/signed-in/admin/articles');
  const search = route.useSearch();
  const navigate = route.useNavigate();
  return <ArticlesPage search={search} onSearchChange={(next) => navigate({ search: next })} />;
}
