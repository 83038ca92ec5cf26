import { getRouteApi } from '@tanstack/react-router';
import { EditArticlePage } from './article-editor-page';

export { NewArticlePage } from './article-editor-page';

/** /articles/:id (a lazy chunk of the router, with the rich-text editor). */
export function EditArticleRoute() {
  const { id } = getRouteApi('/signed-in/admin/articles/$id').useParams();
  return <EditArticlePage id={id} />;
}
