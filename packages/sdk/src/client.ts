import createClient, { type Client } from 'openapi-fetch';
import { EtagCache } from './etag-cache';
import type { components, paths } from './generated/openapi';

export type ClientArticle = components['schemas']['ClientArticle'];
export type JsonFeed = components['schemas']['JsonFeed'];
export type ApiError = components['schemas']['Error'];

/** The JSON body a GET of `P` answers with 200. */
type JsonOf<P extends keyof paths> = paths[P] extends {
  get: { responses: { 200: { content: { 'application/json': infer Body } } } };
}
  ? Body
  : never;
type QueryOf<P extends keyof paths> = paths[P] extends { get: { parameters: { query?: infer Query } } }
  ? Query
  : never;

/** The client routes that answer `{ data, meta: { pagination } }`. */
export type PaginatedPath = {
  [P in keyof paths]: JsonOf<P> extends { data: unknown[]; meta: { pagination: { next: number | null } } }
    ? P
    : never;
}[keyof paths];
/**
 * The whole item of list `P`. The document gives a list's items as the whole article or, with `fields=`, an
 * article with every property optional (ClientArticleFields); the helpers type the sparse case from the
 * fields asked for, so that variant is dropped here.
 */
export type ItemOf<P extends PaginatedPath> =
  JsonOf<P> extends { data: Array<infer Item> } ? WholeOf<Item> : never;
type SparseArticle = components['schemas']['ClientArticleFields'];
type WholeOf<Item> = Item extends SparseArticle ? (SparseArticle extends Item ? never : Item) : Item;
type MetaOf<P extends PaginatedPath> = JsonOf<P> extends { meta: infer Meta } ? Meta : never;

/** The item fields a list can be asked for with `fields` (a sparse fieldset). */
export type FieldOf<P extends PaginatedPath> = keyof ItemOf<P> & string;
/** An item of list `P` with only `F`, or whole when no fields were named. */
export type SparseItemOf<P extends PaginatedPath, F extends FieldOf<P>> = [FieldOf<P>] extends [F]
  ? ItemOf<P>
  : Pick<ItemOf<P>, F>;
/** A list's query as the helpers take it: `fields` as a list of names, which types the items. */
export type ListQuery<P extends PaginatedPath, F extends FieldOf<P>> = Omit<
  NonNullable<QueryOf<P>>,
  'fields'
> & { fields?: readonly F[] };
/** One page of list `P` with items of fields `F`. */
export interface SparsePage<P extends PaginatedPath, F extends FieldOf<P>> {
  data: SparseItemOf<P, F>[];
  meta: MetaOf<P>;
}

export interface NewsroomClientOptions {
  /** Where the API is, e.g. `https://content.example.com` (the paths start with /api/v1). */
  baseUrl: string;
  /** The site's API key (`nsk_...`), sent as the x-api-key header. */
  apiKey: string;
  /** Remember bodies by ETag and revalidate them (If-None-Match, 304). Default true. */
  etagCache?: boolean | { maxEntries: number };
  /** A fetch of your own (tests, instrumentation). Default: the global fetch. */
  fetch?: typeof globalThis.fetch;
}

/** A failed call: the API's error body (`code` is stable, see the API's docs/errors.md) and the status. */
export class NewsroomApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiError | undefined,
  ) {
    super(body ? `${status} ${body.code}: ${body.message}` : `HTTP ${status}`);
    this.name = 'NewsroomApiError';
  }
}

/** The body of a successful openapi-fetch call, or NewsroomApiError. */
export async function unwrap<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await call;
  if (error !== undefined || data === undefined) {
    throw new NewsroomApiError(response.status, error as ApiError | undefined);
  }
  return data;
}

export interface NewsroomClient {
  /** The typed openapi-fetch client: `api.GET('/api/v1/client/posts', { params: { query: { page: 2 } } })`. */
  api: Client<paths>;
  /**
   * One page of a paginated list, thrown NewsroomApiError when it fails. `fields: ['id', 'slug', 'title']`
   * asks for those fields only, and the items are typed with only them.
   */
  page<P extends PaginatedPath, F extends FieldOf<P> = FieldOf<P>>(
    path: P,
    query?: ListQuery<P, F>,
  ): Promise<SparsePage<P, F>>;
  /** Every item of a paginated list, page after page (`limit` per request, default 100); `fields` as in page(). */
  pages<P extends PaginatedPath, F extends FieldOf<P> = FieldOf<P>>(
    path: P,
    query?: ListQuery<P, F>,
  ): AsyncGenerator<SparseItemOf<P, F>, void, undefined>;
  /**
   * The site's feed and sitemap addresses. `withKey` puts the key in the URL (`api_key`) for a feed reader
   * that cannot send headers; such a URL is a secret, so do not publish it: serve the feeds from your own
   * site instead (fetch them with this client and pass them on).
   */
  syndicationUrls(options?: { site?: string; withKey?: boolean }): {
    rss: string;
    jsonFeed: string;
    newsSitemap: string;
    sitemap: string;
  };
  /** Forget every remembered body (ETag cache). */
  clearCache(): void;
}

export function createNewsroomClient(options: NewsroomClientOptions): NewsroomClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const api = createClient<paths>({
    baseUrl,
    headers: { 'x-api-key': options.apiKey },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const cache =
    options.etagCache === false
      ? null
      : new EtagCache(typeof options.etagCache === 'object' ? options.etagCache.maxEntries : undefined);
  if (cache) api.use(cache.middleware);

  // openapi-fetch cannot narrow a generic path: the shapes are checked by PaginatedPath and ListQuery instead.
  const get = api.GET as unknown as (
    path: string,
    init: { params: { query: Record<string, unknown> } },
  ) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

  async function page<P extends PaginatedPath, F extends FieldOf<P>>(path: P, query?: ListQuery<P, F>) {
    const { fields, ...rest } = (query ?? {}) as { fields?: readonly string[] } & Record<string, unknown>;
    const params = fields === undefined ? rest : { ...rest, fields: fields.join(',') };
    return (await unwrap(get(path, { params: { query: params } }))) as SparsePage<P, F>;
  }

  async function* pages<P extends PaginatedPath, F extends FieldOf<P>>(path: P, query?: ListQuery<P, F>) {
    let next: number | null = 1;
    while (next !== null) {
      const pageQuery = { limit: 100, ...query, page: next } as unknown as ListQuery<P, F>;
      const body: SparsePage<P, F> = await page(path, pageQuery);
      yield* body.data;
      next = (body.meta as { pagination: { next: number | null } }).pagination.next;
    }
  }

  return {
    api,
    page,
    pages,
    syndicationUrls({ site, withKey = false } = {}) {
      const url = (path: string) => {
        const params = new URLSearchParams();
        if (site !== undefined) params.set('site', site);
        if (withKey) params.set('api_key', options.apiKey);
        const query = params.size > 0 ? `?${params}` : '';
        return `${baseUrl}/api/v1/client/${path}${query}`;
      };
      return {
        rss: url('feed.xml'),
        jsonFeed: url('feed.json'),
        newsSitemap: url('sitemap-news.xml'),
        sitemap: url('sitemap.xml'),
      };
    },
    clearCache: () => cache?.clear(),
  };
}
