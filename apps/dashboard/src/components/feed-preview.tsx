import type { FeedPreview, PreviewArticle } from '../api/publishers';
import { formatDateTime } from '../lib/format';
import { Badge, type BadgeTone } from './status-badge';
import './feed-preview.css';

/** Text of sanitised HTML, shortened: the excerpt of a preview item. */
export function excerptOf(html: string, length = 220): string {
  const text = new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '';
  const clean = text.replace(/\s+/g, ' ').trim();
  return clean.length > length ? `${clean.slice(0, length).trimEnd()}…` : clean;
}

/** What the publisher's import rules decide about an item, in words, with a tone. */
export function decisionInWords(decision: PreviewArticle['decision']): {
  tone: BadgeTone;
  label: string;
  why: string;
} {
  const quoted = decision.keyword ? ` “${decision.keyword}”` : '';
  switch (decision.rule) {
    case 'alreadyImported':
      return { tone: 'neutral', label: 'Already imported', why: 'An earlier fetch saved this item.' };
    case 'excludeKeywords':
      return { tone: 'danger', label: 'Skipped', why: `Excluded keyword${quoted}.` };
    case 'includeKeywords':
      return decision.outcome === 'import'
        ? { tone: 'success', label: 'Would be imported', why: `Include keyword${quoted}.` }
        : { tone: 'danger', label: 'Skipped', why: 'None of the include keywords.' };
    case 'maxNewItemsPerFetch':
      return {
        tone: 'warning',
        label: 'Waits',
        why: 'Over the new items per fetch; a later fetch saves it.',
      };
    default:
      return { tone: 'success', label: 'Would be imported', why: '' };
  }
}

/** The first items of a feed as they would be imported: title, date, thumbnail, excerpt, and the rules' decision. */
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
                <Decision decision={item.decision} />
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

function Decision({ decision }: { decision: PreviewArticle['decision'] }) {
  const { tone, label, why } = decisionInWords(decision);
  return (
    <p className="feed-preview-decision">
      <Badge tone={tone}>{label}</Badge>
      {why && <span className="muted">{why}</span>}
    </p>
  );
}
