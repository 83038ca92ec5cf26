import { Type } from 'typebox';
import { ClientArticleSchema } from './client-article.schema';

export const changesPageLimit = { default: 100, maximum: 500 };

/** Query of GET /client/changes. */
export const ClientChangesQuerySchema = Type.Object(
  {
    since: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 256,
        description:
          'a cursor from an earlier answer (meta.next or an item cursor); leave out to get one for now',
      }),
    ),
    initial: Type.Optional(
      Type.Boolean({
        description:
          'true: start from nothing: every article this key sees as upserts, page by page, then the ' +
          'changes since the first page (follow meta.next while hasMore); not with since',
      }),
    ),
    limit: Type.Integer({
      minimum: 1,
      maximum: changesPageLimit.maximum,
      default: changesPageLimit.default,
      description: 'at most this many changes per page',
    }),
    site: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'network key: only this site (slug); a site key may name only its own site',
      }),
    ),
    api_key: Type.Optional(
      Type.String({
        maxLength: 256,
        description: 'the API key, when it cannot be sent as the x-api-key header',
      }),
    ),
  },
  { additionalProperties: false },
);

const cursor = Type.String({ description: 'opaque; pass as `since` to read on from here' });

/** One page of the change feed. */
export const ClientChangesPageSchema = Type.Object(
  {
    data: Type.Array(
      Type.Object({
        cursor,
        type: Type.Union([Type.Literal('upsert'), Type.Literal('delete')], {
          description: "upsert: the article is visible to this key now; delete: it left this key's view",
        }),
        id: Type.String({ format: 'uuid' }),
        slug: Type.String(),
        // Upserts only: the article as /client/article/:slug returns it.
        article: Type.Optional(ClientArticleSchema),
      }),
    ),
    meta: Type.Object({
      next: cursor,
      hasMore: Type.Boolean({
        description: 'true: read again at once with next; false: caught up, poll later',
      }),
    }),
  },
  { title: 'ClientChangesPage' },
);
