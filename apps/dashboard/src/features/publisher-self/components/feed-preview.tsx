import type { FeedPreview } from '../../../lib/api-types';
import { formatDateTime } from '../../../lib/format';
import './feed-preview.css';

/** Text of sanitised HTML, shortened: the excerpt of a preview item. */
export function excerptOf(html: string, length = 220): string {
  const text = new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '';
  const clean = text.replace(/\s+/g, ' ').trim();
  return clean.length > length ? `${clean.slice(0, length).trimEnd()}…` : clean;
}

/** The first items of a feed as they would be imported: title, date, thumbnail, excerpt. */
export function FeedPreviewList({ preview }: { preview: FeedPreview }) {
  return (
    <section aria-labelledby="preview-title" className="stack">
      <h2 id="preview-title">Preview of “{preview.title}”</h2>
      {preview.items.length === 0 ? (
        <p className="muted">The feed is valid but has no items yet.</p>
      ) : (
        <ul className="feed-preview">
          {preview.items.map((item) => (
            <li key={item.rssFeedGuid} className="feed-preview-item">
              {item.thumbnail ? (
                <img
                  src={item.thumbnail}
                  alt=""
                  className="feed-preview-thumb"
                  loading="lazy"
                  referrerPolicy="no-referrer"
                />
              ) : (
                <div className="feed-preview-thumb feed-preview-nothumb" aria-hidden="true" />
              )}
              <div>
                <h3>{item.title}</h3>
                <p className="muted">{formatDateTime(item.sourcePublishedAt ?? item.publishedAt)}</p>
                <p>{excerptOf(item.body)}</p>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
