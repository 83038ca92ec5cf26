import { articleUrlOf } from './article-url';

/** What one host site's canonical URL of an article is built from: its slug, URL template and domain. */
export type HostSiteUrlParts = [siteSlug: string, template: string, domain: string | null];

/**
 * An article's canonical URL on each of its host sites that has an article URL template, by site slug
 * (`{ metro: "https://metro.example.com/news/harbour-bridge" }`). Sites without a template have no entry.
 */
export function articleUrlsOf(sites: readonly HostSiteUrlParts[], slug: string): Record<string, string> {
  const urls: Record<string, string> = {};
  for (const [siteSlug, template, domain] of sites) urls[siteSlug] = articleUrlOf(template, { domain }, slug);
  return urls;
}
