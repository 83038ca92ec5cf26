import createClient, { type Client } from 'openapi-fetch';
import { type ChangeEvent, type ChangesOptions, readChanges } from './change-feed.js';
import { errorBody, NewsroomApiError, unwrap } from './errors.js';
import { EtagCache } from './etag-cache.js';
import type { components, paths } from './generated/openapi.js';
import type { FieldOf, ListQuery, PaginatedPath, SparseItemOf, SparsePage, WalkQuery } from './list-types.js';
import { withOriginFallback } from './origin-fallback.js';
import { type SyndicationKind, type SyndicationOptions, syndicationPaths } from './syndication.js';

export type ClientArticle = components['schemas']['ClientArticle'];
/** The fields an article can be asked for with `fields`. */
export type ArticleField = keyof ClientArticle & string;
/** An article with only `F`, or whole when no fields were named. */
export type SparseArticleOf<F extends ArticleField> = [ArticleField] extends [F]
  ? ClientArticle
  : Pick<ClientArticle, F>;
/** The query of article(): `fields` as a list of names, which types the answer. */
export type ArticleQuery<F extends ArticleField> = Omit<
  NonNullable<paths['/api/v1/client/article/{slug}']['get']['parameters']['query']>,
  'fields'
> & { fields?: readonly F[] };
export type JsonFeed = components['schemas']['JsonFeed'];

export interface NewsroomClientOptions {
  /** Where the API is, e.g. `https://content.example.com` (the paths start with /api/v1). */
  baseUrl: string;
  /** The site's API key (`nsk_...`), sent as the x-api-key header. */
  apiKey: string;
  /** Remember bodies by ETag and revalidate them (If-None-Match, 304). Default true. */
  etagCache?: boolean | { maxEntries: number };
  /** A fetch of your own (tests, instrumentation). Default: the global fetch. */
  fetch?: typeof globalThis.fetch;
  /**
   * The API itself, when `baseUrl` is a CDN or Varnish in front of it: a request the edge cannot answer (not
   * reachable, or 502 / 503 / 504) is asked of this origin instead, so reads go on while the edge is down.
   */
  originUrl?: string;
}

export interface NewsroomClient {
  /** The typed openapi-fetch client: `api.GET('/api/v1/client/posts', { params: { query: { page: 2 } } })`. */
  api: Client<paths>;
  /**
   * One page of a JSON list, thrown NewsroomApiError when it fails. `fields: ['id', 'slug', 'title']`
   * asks for those fields only, and the items are typed with only them. `after`: the `nextCursor` of the
   * page before.
   */
  page<P extends PaginatedPath, F extends FieldOf<P> = FieldOf<P>>(
    path: P,
    query?: ListQuery<P, F>,
  ): Promise<SparsePage<P, F>>;
  /**
   * Every item of a JSON list, page after page (`limit` per request, default 100), by list cursor: articles
   * published during the walk never make it repeat or skip one. `fields` as in page(). A search (`q`) is
   * ranked and walks by page number.
   */
  pages<P extends PaginatedPath, F extends FieldOf<P> = FieldOf<P>>(
    path: P,
    query?: WalkQuery<P, F>,
  ): AsyncGenerator<SparseItemOf<P, F>, void, undefined>;
  /**
   * One published article by slug, thrown NewsroomApiError when it fails (404: none visible to this key).
   * `fields` narrows it as in page(); `include: 'structuredData'` adds its NewsArticle JSON-LD.
   */
  article<F extends ArticleField = ArticleField>(
    slug: string,
    query?: ArticleQuery<F>,
  ): Promise<SparseArticleOf<F>>;
  /**
   * The article a preview link opens (published or not), in the shape article() answers: what an editor's
   * preview token (`npv_...`) shows, for a child site's draft-mode route. Needs no key (the token is the
   * secret; the client's key is sent but not looked at). `site`: write its `url` as that site's reads do
   * (default: the network's `urls`). Never cached (the API answers `no-store`): each call asks the API, so a
   * revoked or expired link fails at once. Thrown NewsroomApiError when it fails (404 PREVIEW_NOT_FOUND:
   * unknown, expired or revoked alike).
   */
  preview(token: string, options?: { site?: string }): Promise<ClientArticle>;
  /**
   * A feed or sitemap of the site as text (`rss`, `jsonFeed`, `newsSitemap`, `sitemap`), to serve from the
   * child site's own domain. Thrown NewsroomApiError when it fails (409: the site has no URL template).
   */
  syndication(kind: SyndicationKind, options?: SyndicationOptions): Promise<string>;
  /**
   * The change feed as an async iterator of upserts and deletes: a full read, then the changes, resumable
   * from a stored cursor (see ChangeEvent).
   */
  changes(options?: ChangesOptions): AsyncGenerator<ChangeEvent, void, undefined>;
  /**
   * The site's feed and sitemap addresses. `withKey` puts the key in the URL (`api_key`) for a feed reader
   * that cannot send headers; such a URL is a secret, so do not publish it: serve the feeds from your own
   * site instead (`syndication()`).
   */
  syndicationUrls(options?: { site?: string; withKey?: boolean }): Record<SyndicationKind, string>;
  /** Forget every remembered body (ETag cache). */
  clearCache(): void;
}

export function createNewsroomClient(options: NewsroomClientOptions): NewsroomClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const api = createClient<paths>({
    baseUrl,
    headers: { 'x-api-key': options.apiKey },
    fetch: options.originUrl ? withOriginFallback(fetchImpl, baseUrl, options.originUrl) : fetchImpl,
  });
  const cache =
    options.etagCache === false
      ? null
      : new EtagCache(typeof options.etagCache === 'object' ? options.etagCache.maxEntries : undefined);
  if (cache) api.use(cache.middleware);

  // openapi-fetch cannot narrow a generic path: the shapes are checked by PaginatedPath and ListQuery instead.
  const get = api.GET as unknown as (
    path: string,
    init: { params: { query: Record<string, unknown> }; parseAs?: 'text' },
  ) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

  async function page<P extends PaginatedPath, F extends FieldOf<P>>(path: P, query?: ListQuery<P, F>) {
    const { fields, ...rest } = (query ?? {}) as { fields?: readonly string[] } & Record<string, unknown>;
    const params = fields === undefined ? rest : { ...rest, fields: fields.join(',') };
    return (await unwrap(get(path, { params: { query: params } }))) as SparsePage<P, F>;
  }

  async function article<F extends ArticleField>(slug: string, query?: ArticleQuery<F>) {
    const { fields, ...rest } = (query ?? {}) as { fields?: readonly string[] } & Record<string, unknown>;
    const params = fields === undefined ? rest : { ...rest, fields: fields.join(',') };
    const path = `/api/v1/client/article/${encodeURIComponent(slug)}`;
    return (await unwrap(get(path, { params: { query: params } }))) as SparseArticleOf<F>;
  }

  async function preview(token: string, { site }: { site?: string } = {}) {
    const path = `/api/v1/client/preview/${encodeURIComponent(token)}`;
    const query = site === undefined ? {} : { site };
    return (await unwrap(get(path, { params: { query } }))) as ClientArticle;
  }

  async function* pages<P extends PaginatedPath, F extends FieldOf<P>>(path: P, query?: WalkQuery<P, F>) {
    let at: { page: number } | { after: string } | null = { page: 1 };
    while (at !== null) {
      const pageQuery = { limit: 100, ...query, ...at } as unknown as ListQuery<P, F>;
      const body: SparsePage<P, F> = await page(path, pageQuery);
      yield* body.data;
      const { next, nextCursor } = (body.meta as { pagination: Pagination }).pagination;
      // By cursor where the list has one; a search (ranked, no cursor) by page number.
      at = nextCursor
        ? { after: nextCursor }
        : nextCursor === undefined && next !== null
          ? { page: next }
          : null;
    }
  }

  async function syndication(kind: SyndicationKind, { site, page }: SyndicationOptions = {}) {
    const query = { ...(site === undefined ? {} : { site }), ...(page === undefined ? {} : { page }) };
    const { data, error, response } = await get(syndicationPaths[kind], {
      params: { query },
      parseAs: 'text',
    });
    if (error !== undefined || typeof data !== 'string') {
      throw new NewsroomApiError(response.status, errorBody(error));
    }
    return data;
  }

  return {
    api,
    page,
    pages,
    article,
    preview,
    syndication,
    changes: (changeOptions) => readChanges(api, changeOptions),
    syndicationUrls({ site, withKey = false } = {}) {
      const url = (path: string) => {
        const params = new URLSearchParams();
        if (site !== undefined) params.set('site', site);
        if (withKey) params.set('api_key', options.apiKey);
        const query = params.size > 0 ? `?${params}` : '';
        return `${baseUrl}${path}${query}`;
      };
      return {
        rss: url(syndicationPaths.rss),
        jsonFeed: url(syndicationPaths.jsonFeed),
        newsSitemap: url(syndicationPaths.newsSitemap),
        sitemap: url(syndicationPaths.sitemap),
      };
    },
    clearCache: () => cache?.clear(),
  };
}

type Pagination = { next: number | null; nextCursor?: string | null };
