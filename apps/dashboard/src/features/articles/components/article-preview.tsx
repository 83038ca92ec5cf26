import { formatDateTime } from '../../../lib/format';
import type { ArticleDraft } from './article-draft';

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/**
 * The article as a child site receives it and might render it: in a sandboxed frame (no scripts, no
 * same-origin access), so even a body stored before sanitising existed cannot run anything here.
 */
export function ArticlePreview({
  draft,
  source,
  publishedAt,
}: {
  draft: ArticleDraft;
  source: string | null;
  publishedAt: string | null;
}) {
  const meta = [draft.category, draft.section, publishedAt ? formatDateTime(publishedAt) : 'not published']
    .filter(Boolean)
    .map(escapeHtml)
    .join(' · ');
  const html = `<!doctype html><html><head><meta charset="utf-8"><style>
body{font:16px/1.6 Georgia,serif;margin:16px;color:#1b1f24;overflow-wrap:anywhere}
h1{font:700 1.6rem/1.2 system-ui,sans-serif;margin:0 0 8px}.meta{font:0.85rem system-ui,sans-serif;color:#57606a}
img{max-width:100%;height:auto}.tags span{font:0.8rem system-ui,sans-serif;background:#eef;border-radius:4px;padding:2px 6px;margin-right:4px}
</style></head><body><article>
${draft.thumbnail ? `<img src="${escapeHtml(draft.thumbnail)}" alt="">` : ''}
<h1>${escapeHtml(draft.title || 'Untitled')}</h1><p class="meta">${meta}${source ? ` · Source: ${escapeHtml(source)}` : ''}</p>
${draft.body}
${draft.image ? `<img src="${escapeHtml(draft.image)}" alt="">` : ''}
<p class="tags">${draft.tags.map((tag) => `<span>${escapeHtml(tag)}</span>`).join('')}</p>
</article></body></html>`;
  return <iframe className="article-preview" title="Preview as a child site" sandbox="" srcDoc={html} />;
}
