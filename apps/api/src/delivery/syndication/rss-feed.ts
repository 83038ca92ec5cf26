import { publicFeedPaths } from '../client-site';
import type { SyndicatedSite, SyndicationItem } from './syndication-item';
import { element, escapeXml } from './xml';

/**
 * An RSS 2.0 document: the channel, then one item per article with its title as plain text escaped once
 * for XML (as RSS 2.0 defines it and independent readers read it), guid (the article id, not a permalink),
 * pubDate, a category per category/tag, the excerpt as description, the sanitised body in content:encoded,
 * the picture as media:content and, for imported articles, source.
 */
export function renderRss(site: SyndicatedSite, items: readonly SyndicationItem[], builtAt: Date): string {
  const parts = [
    '<?xml version="1.0" encoding="UTF-8"?>\n',
    '<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" ',
    'xmlns:media="http://search.yahoo.com/mrss/" xmlns:atom="http://www.w3.org/2005/Atom">\n<channel>\n',
    // The feed's own public address (RSS Best Practices: atom:link rel="self"), on the site's domain.
    `<atom:link href="${escapeXml(`${site.publicBaseUrl}/${publicFeedPaths.rss}`)}" rel="self" type="application/rss+xml"/>`,
    element('title', site.name),
    element('link', site.homeUrl),
    element('description', `Latest articles from ${site.name}`),
    element('language', site.language),
    element('lastBuildDate', rfc822(items[0]?.updatedAt ?? builtAt)),
    element('generator', 'newsroom'),
    '\n',
  ];
  for (const item of items) parts.push(renderItem(item));
  parts.push('</channel>\n</rss>\n');
  return parts.join('');
}

function renderItem(item: SyndicationItem): string {
  const parts = [
    '<item>',
    element('title', item.title),
    element('link', item.url),
    `<guid isPermaLink="false">${escapeXml(item.guid)}</guid>`,
    element('pubDate', rfc822(item.publishedAt)),
    ...item.categories.map((category) => element('category', category)),
    element('description', item.excerpt),
    element('content:encoded', item.body),
    ...item.authors.map((author) => element('dc:creator', author.name)),
  ];
  if (item.image) parts.push(mediaContent(item.image, item.imageMeta));
  if (item.source?.url)
    parts.push(`<source url="${escapeXml(item.source.url)}">${escapeXml(item.source.name)}</source>`);
  parts.push('</item>\n');
  return parts.join('');
}

/** The picture as Media RSS: its size when known, with media:credit and media:description (its caption, else alt). */
function mediaContent(url: string, meta: SyndicationItem['imageMeta']): string {
  const size = `${meta?.width ? ` width="${meta.width}"` : ''}${meta?.height ? ` height="${meta.height}"` : ''}`;
  const description = meta?.caption ?? meta?.alt ?? null;
  const children = [
    meta?.credit ? element('media:credit', meta.credit) : '',
    description ? `<media:description type="plain">${escapeXml(description)}</media:description>` : '',
  ].join('');
  const open = `<media:content url="${escapeXml(url)}" medium="image"${size}`;
  return children ? `${open}>${children}</media:content>` : `${open}/>`;
}

/** RFC 822 (as RSS 2.0 requires), in GMT. */
const rfc822 = (date: Date) => date.toUTCString();
