import type { CreateSiteBody } from '../../../lib/api-types';

export const siteFields = ['name', 'slug', 'domain'] as const;
export const siteCodeFields = { SITE_SLUG_TAKEN: 'slug' } as const;

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
