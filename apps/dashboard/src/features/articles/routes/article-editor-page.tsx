import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { articleQuery } from '../../../api/articles';
import { AuditLink } from '../../../components/audit-link';
import { PageHeader } from '../../../components/page-header';
import { ErrorState, LoadingState } from '../../../components/states';
import { ArticleEditor } from '../components/article-editor';

// Loaded with its route only: the rich-text editor is most of this chunk.

export function NewArticlePage() {
  return (
    <>
      <PageHeader title="New article" actions={<Link to="/articles">All articles</Link>} />
      <ArticleEditor />
    </>
  );
}

export function EditArticlePage({ id }: { id: string }) {
  const article = useQuery(articleQuery(id));
  return (
    <>
      <PageHeader
        title="Edit article"
        actions={
          <>
            <AuditLink filter={{ objectType: 'article', objectId: id }} />
            <Link to="/articles">All articles</Link>
          </>
        }
      />
      {article.isPending || !article.isFetchedAfterMount ? (
        <LoadingState label="Loading the article…" />
      ) : article.isError && !article.data ? (
        <ErrorState error={article.error} onRetry={() => article.refetch()} />
      ) : (
        <ArticleEditor key={article.data.article.id} loaded={article.data} />
      )}
    </>
  );
}
