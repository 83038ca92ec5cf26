import type { components, paths } from './generated/openapi.js';

/** The JSON body a GET of `P` answers with 200 (never for a route that answers text). */
type JsonOf<P extends keyof paths> = paths[P] extends {
  get: { responses: { 200: { content: { 'application/json': infer Body } } } };
}
  ? Body
  : never;
type QueryOf<P extends keyof paths> = paths[P] extends { get: { parameters: { query?: infer Query } } }
  ? Query
  : never;

/**
 * The client routes that answer `{ data, meta: { pagination } }`: the JSON lists only. A route without a JSON
 * body (feeds, sitemaps) has JsonOf `never`, which would pass any `extends` test: it is ruled out first.
 */
export type PaginatedPath = {
  [P in keyof paths]: [JsonOf<P>] extends [never]
    ? never
    : JsonOf<P> extends { data: unknown[]; meta: { pagination: { next: number | null } } }
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
/** A query for walking a whole list: where to start is the walk's business (`page`, `after`). */
export type WalkQuery<P extends PaginatedPath, F extends FieldOf<P>> = Omit<
  ListQuery<P, F>,
  'page' | 'after'
>;
/** One page of list `P` with items of fields `F`. */
export interface SparsePage<P extends PaginatedPath, F extends FieldOf<P>> {
  data: SparseItemOf<P, F>[];
  meta: MetaOf<P>;
}
