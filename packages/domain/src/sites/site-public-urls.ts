import { DomainValidationError } from '../errors';
import { articleUrlOf } from './article-url';

// The public addresses of a child site that are not article URLs: the browser origins allowed to read its
// content (CORS), and the base under which it serves its feeds and sitemaps from its own domain.

/** At most this many allowed origins per site (a site has a few: www, the apex, a preview host). */
export const maxAllowedOrigins = 50;

/**
 * The allowed origins as stored: each an http(s) origin (`scheme://host[:port]`, what a browser sends in
 * `Origin`), lower case, without path, query, credentials or a wildcard; duplicates dropped. A trailing `/`
 * is accepted and removed. DomainValidationError INVALID_ALLOWED_ORIGIN otherwise.
 */
export function normaliseAllowedOrigins(origins: readonly string[]): string[] {
  if (origins.length > maxAllowedOrigins) {
    throw new DomainValidationError('INVALID_ALLOWED_ORIGIN', `at most ${maxAllowedOrigins} allowed origins`);
  }
  return [...new Set(origins.map(normaliseOrigin))];
}

function normaliseOrigin(origin: string): string {
  const invalid = () =>
    new DomainValidationError(
      'INVALID_ALLOWED_ORIGIN',
      `allowedOrigins: ${JSON.stringify(origin)} is not an http(s) origin such as https://news.example.com`,
    );
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    throw invalid();
  }
  const bare = origin.replace(/\/$/, '');
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid();
  // Only scheme, host and port: a path, query, fragment or credentials would never match a browser's Origin.
  if (url.origin.toLowerCase() !== bare.toLowerCase()) throw invalid();
  return url.origin;
}

/**
 * The public base URL as stored: an absolute http(s) URL without query, fragment or credentials, and without
 * a trailing `/` (paths are appended to it). DomainValidationError INVALID_PUBLIC_BASE_URL otherwise.
 */
export function normalisePublicBaseUrl(base: string): string {
  const invalid = () =>
    new DomainValidationError(
      'INVALID_PUBLIC_BASE_URL',
      'publicBaseUrl must be an absolute http(s) URL without query, fragment or credentials',
    );
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw invalid();
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid();
  if (url.search || url.hash || url.username || url.password || base.includes('?') || base.includes('#')) {
    throw invalid();
  }
  return url.href.replace(/\/+$/, '');
}

/**
 * Where a child site serves its feeds and sitemaps (`<base>/feed.xml`, `<base>/sitemap.xml`...): its
 * `publicBaseUrl`, else the origin of its article URLs; null when it has neither.
 */
export function publicBaseOf(site: {
  publicBaseUrl: string | null;
  articleUrlTemplate: string | null;
  domain: string | null;
}): string | null {
  if (site.publicBaseUrl !== null) return site.publicBaseUrl;
  if (site.articleUrlTemplate === null) return null;
  try {
    return new URL(articleUrlOf(site.articleUrlTemplate, site, 'slug')).origin;
  } catch {
    return null;
  }
}
