import type { PublisherArticle } from '../api/publishers';
import { formatDateTime } from '../lib/format';
import { ArticleStatusBadge } from './status-badge';

/** A publisher's articles, newest first, with their status and the reviewer's reason, if one was given. */
export function ArticlesTable({ articles, caption }: { articles: PublisherArticle[]; caption: string }) {
  return (
    <div className="table-wrap">
      <table className="table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Title</th>
            <th scope="col">Status</th>
            <th scope="col">Imported</th>
          </tr>
        </thead>
        <tbody>
          {articles.map((article) => (
            <tr key={article.id}>
              <td className="break-anywhere">
                {article.sourceUrl ? (
                  <a href={article.sourceUrl} target="_blank" rel="noreferrer noopener">
                    {article.title}
                  </a>
                ) : (
                  article.title
                )}
              </td>
              <td>
                <ArticleStatusBadge status={article.status} />
                {article.reviewReason && (
                  <div className="muted break-anywhere">Reason: {article.reviewReason}</div>
                )}
              </td>
              <td>{formatDateTime(article.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
