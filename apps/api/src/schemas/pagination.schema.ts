import type { PageRequest } from '@newsroom/domain';
import { type TSchema, Type } from 'typebox';

export const maxPageSize = 100;

/** `page` and `limit` query parameters, shared by every paginated listing. */
export const PageQuerySchema = Type.Object({
  page: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1, description: 'page number, from 1' }),
  limit: Type.Integer({
    minimum: 1,
    maximum: maxPageSize,
    default: 20,
    description: `page size, at most ${maxPageSize}`,
  }),
});

export const PaginationSchema = Type.Object(
  {
    page: Type.Integer(),
    limit: Type.Integer(),
    pages: Type.Integer({ description: 'number of pages (0 when there is nothing)' }),
    total: Type.Integer({
      description: 'number of items; a lower bound when totalRelation is "gte"',
    }),
    totalRelation: Type.Optional(
      Type.Union([Type.Literal('eq'), Type.Literal('gte')], {
        description:
          'searches (q) only: "eq" when total is exact, "gte" when more items match than were counted ' +
          '(total is then a lower bound; pages and next still tell whether a next page exists)',
      }),
    ),
    next: Type.Union([Type.Integer(), Type.Null()], {
      description: 'next page number, or null on the last page',
    }),
    prev: Type.Union([Type.Integer(), Type.Null()], {
      description: 'previous page number, or null on the first page',
    }),
  },
  { title: 'Pagination' },
);

/** The `meta` of a paginated answer. */
export const PaginationMetaSchema = Type.Object(
  { pagination: PaginationSchema },
  { title: 'PaginationMeta' },
);

/**
 * The list wrapper every paginated route answers with: `{ data, meta: { pagination } }`. Named `<Item>Page`
 * in the OpenAPI document when the item schema has a title.
 */
export const paginated = <T extends TSchema>(item: T) => {
  const { title } = item as { title?: unknown };
  return Type.Object(
    { data: Type.Array(item), meta: PaginationMetaSchema },
    typeof title === 'string' ? { title: `${title}Page` } : {},
  );
};

/** The same wrapper named `title` (for items without a title of their own, such as a union). */
export const paginatedAs = <T extends TSchema>(title: string, item: T) =>
  Type.Object({ data: Type.Array(item), meta: PaginationMetaSchema }, { title });

/**
 * The pagination of a page. `totalIsLowerBound` (searches only) adds `totalRelation`; a lower-bound total
 * still reaches past the page when more items follow it, so `pages` and `next` stay right.
 */
export function paginationMeta({ page, limit }: PageRequest, total: number, totalIsLowerBound?: boolean) {
  const pages = Math.ceil(total / limit);
  return {
    page,
    limit,
    pages,
    total,
    ...(totalIsLowerBound === undefined
      ? {}
      : { totalRelation: totalIsLowerBound ? ('gte' as const) : ('eq' as const) }),
    next: page < pages ? page + 1 : null,
    prev: page > 1 ? Math.min(page - 1, Math.max(pages, 1)) : null,
  };
}
