import { type Listing, type ListingPosition, labelSlug, tagSlugsOf } from '@newsroom/domain';
import type { FastifyRequest } from 'fastify';
import { HttpError } from '../http-error';
import {
  type ClientAllQuery,
  clientArticleExtras,
  clientArticleFields,
} from '../schemas/client-article.schema';
import { decodeListingCursor } from './listing-cursor';

// The client listings' query parameters (filters, search, sparse fieldsets) turned into a domain Listing.
// The route schema has already checked types and formats; what it cannot say is checked here, with the same
// 400 VALIDATION_ERROR.

type ListingFilterQuery = Omit<ClientAllQuery, 'format' | 'site' | 'api_key' | 'include'>;

const invalid = (message: string) => new HttpError(400, 'VALIDATION_ERROR', message);

/** The listing a client asks for in `scope` (its site, or the network). */
export function listingOf(
  query: ListingFilterQuery,
  scope: { siteId: string | null; aggregatedOnly: boolean },
): Listing {
  const tag = query.tag ?? null;
  if (tag !== null && tagSlugsOf(tag).length === 0) {
    throw invalid(`Invalid querystring: tag ${JSON.stringify(tag)} names no tag (letters or digits)`);
  }
  const source = query.source === undefined ? null : labelSlug(query.source);
  if (source === '') throw invalid('Invalid querystring: source must contain letters or digits');
  const author = query.author === undefined ? null : labelSlug(query.author);
  if (author === '') throw invalid('Invalid querystring: author must contain letters or digits');
  const q = query.q?.trim() || null;
  if (query.q !== undefined && q === null) throw invalid('Invalid querystring: q is blank');
  return {
    siteId: scope.siteId,
    aggregatedOnly: scope.aggregatedOnly,
    tag,
    category: query.category ?? null,
    section: query.section ?? null,
    source,
    author,
    aggregated: query.aggregated ?? null,
    publishedAfter: instantOf(query.publishedAfter),
    publishedBefore: instantOf(query.publishedBefore),
    q,
  };
}

/** An ISO 8601 date (midnight UTC) or date-time (no zone: UTC) the schema has accepted. */
function instantOf(text: string | undefined): Date | null {
  if (text === undefined) return null;
  // The schema allows `t` or a space between date and time, and a zone as Z, ±hh, ±hhmm or ±hh:mm.
  const [day, time] = text.split(/[tT ]/);
  const zone = time?.match(/(?:[zZ]|[+-]\d{2}(?::?\d{2})?)$/)?.[0];
  const instant = new Date(
    time === undefined
      ? `${day}T00:00:00Z`
      : `${day}T${time.slice(0, time.length - (zone?.length ?? 0))}${normalisedZone(zone)}`,
  );
  if (Number.isNaN(instant.getTime()))
    throw invalid(`Invalid querystring: ${JSON.stringify(text)} is not a date`);
  return instant;
}

function normalisedZone(zone: string | undefined): string {
  if (zone === undefined || zone === 'z' || zone === 'Z') return 'Z';
  const digits = zone.slice(1).replace(':', '');
  return `${zone[0]}${digits.slice(0, 2)}:${digits.slice(2, 4) || '00'}`;
}

const knownFields: ReadonlySet<string> = new Set(clientArticleFields);

/**
 * The article fields `fields=` asks for, in the article's own order (so equal sets give equal responses and
 * share a cache entry), or null for all of them. An unknown field is a 400 naming it.
 */
export function fieldsOf(fields: string | undefined): string[] | null {
  if (fields === undefined) return null;
  const asked = fields
    .split(',')
    .map((field) => field.trim())
    .filter((field) => field.length > 0);
  const unknown = asked.filter((field) => !knownFields.has(field));
  if (unknown.length > 0) {
    throw invalid(
      `Invalid querystring: unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((f) => JSON.stringify(f)).join(', ')} in fields (known: ${clientArticleFields.join(', ')})`,
    );
  }
  if (asked.length === 0) throw invalid('Invalid querystring: fields names no field');
  const wanted = new Set(asked);
  return clientArticleFields.filter((field) => wanted.has(field));
}

/**
 * The list cursor of `after=`, or null without one. It continues a walk in date order: with `page` (which
 * would say where else to start) or `q` (ranked, not in date order) it is a 400.
 */
export function afterOf(request: FastifyRequest): ListingPosition | null {
  const { after, q } = request.query as { after?: string; q?: string };
  if (after === undefined) return null;
  // `page` has a default, so the parsed query always has one: ask the URL whether the client sent it.
  const sent = new URLSearchParams(request.url.slice(request.url.indexOf('?') + 1));
  if (sent.has('page')) throw invalid('Invalid querystring: after and page cannot be combined');
  if (q !== undefined)
    throw invalid('Invalid querystring: after cannot be combined with q (search results are ranked)');
  const position = decodeListingCursor(after);
  if (!position) throw new HttpError(400, 'INVALID_CURSOR', 'after is not a list cursor this API handed out');
  return position;
}

const extras: ReadonlySet<string> = new Set(clientArticleExtras);
/** The fields an article has when nothing narrows or extends it. */
const usualFields = clientArticleFields.filter((field) => !extras.has(field));

/**
 * The article fields a read writes: `fields=` (fieldsOf), extended by `include=`; null for the usual whole
 * article. Structured data needs one site (its publisher, language and canonical URL): a network-wide read
 * asking for it is a 400 SITE_REQUIRED.
 */
export function articleFieldsOf(
  query: { fields?: string; include?: string },
  siteId: string | null,
): string[] | null {
  const fields = fieldsOf(query.fields);
  if (query.include === undefined) return needsSite(fields, siteId);
  const wanted = new Set([...(fields ?? usualFields), query.include]);
  return needsSite(
    clientArticleFields.filter((field) => wanted.has(field)),
    siteId,
  );
}

function needsSite(fields: string[] | null, siteId: string | null): string[] | null {
  if (siteId === null && fields?.includes('structuredData')) {
    throw new HttpError(
      400,
      'SITE_REQUIRED',
      'structuredData describes an article on one site: name it with ?site=<slug> (network key)',
    );
  }
  return fields;
}
