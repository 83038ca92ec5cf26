import type { CreateSiteBody, EditSiteBody } from '../../../api/sites';

/** The error codes that name a field of the site forms. */
export const siteCodeFields = {
  SITE_SLUG_TAKEN: 'slug',
  INVALID_ARTICLE_URL_TEMPLATE: 'articleUrlTemplate',
  INVALID_ALLOWED_ORIGIN: 'allowedOrigins',
  INVALID_PUBLIC_BASE_URL: 'publicBaseUrl',
} as const;

/** A slug suggested from the name: lower-case ASCII words joined by dashes (the API's rule), at most 63. */
export function suggestSlug(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63)
    .replace(/-+$/, '');
}

/** The form's text as the API's body: trimmed, an empty domain left out (create) or cleared (edit). */
export function siteBody(name: string, slug: string, domain: string): CreateSiteBody {
  const host = domain.trim().toLowerCase();
  return { name: name.trim(), slug: slug.trim(), domain: host === '' ? null : host };
}

/** The syndication settings as the API's edit body: an empty template clears it (no feeds or sitemaps). */
export function syndicationBody(language: string, articleUrlTemplate: string): EditSiteBody {
  const template = articleUrlTemplate.trim();
  return { language: language.trim(), articleUrlTemplate: template === '' ? null : template };
}

/**
 * The browser-access settings as the API's edit body: origins separated by commas, spaces or new lines
 * (none: no browser may read), and an empty public base cleared (the template's origin is used).
 */
export function browserAccessBody(allowedOrigins: string, publicBaseUrl: string): EditSiteBody {
  const base = publicBaseUrl.trim();
  return {
    allowedOrigins: allowedOrigins.split(/[\s,]+/).filter((origin) => origin !== ''),
    publicBaseUrl: base === '' ? null : base,
  };
}
