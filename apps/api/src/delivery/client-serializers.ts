import {
  clientArticleJson,
  type ImgproxySettings,
  type PublishedArticle,
  type TaxonomyTerm,
  withRenditions,
} from '@newsroom/domain';
import fastJson from 'fast-json-stringify';
import { ClientTaxonomySchema } from '../schemas/client-taxonomy.schema';
import { ClientPaginationMetaSchema, type paginationMeta } from '../schemas/pagination.schema';
import { articleSchemaWith } from './article-fields';

type ArticleSerializer = (article: PublishedArticle) => string;

/**
 * The client responses' JSON writers. A whole article is written by the domain's one article writer
 * (`clientArticleJson`, which webhook payloads use too); the rest are compiled once from the routes' own
 * response schemas with the compiler Fastify uses for them (fast-json-stringify), so bytes written here are
 * the bytes the schemas describe (`client-article-versions.test.ts`, `response-contract.test.ts`).
 */
export interface ClientSerializers {
  /** One whole article (an item of every client response): the domain's clientArticleJson. */
  article: ArticleSerializer;
  /** One article narrowed to `fields` (a sparse fieldset, `fields=`); null: the whole article. */
  articleWith: (fields: readonly string[] | null) => ArticleSerializer;
  /** The `meta` of a listing page: `{ pagination }`. */
  meta: (meta: { pagination: ReturnType<typeof paginationMeta> & { nextCursor?: string | null } }) => string;
  /** A taxonomy response: `{ data: [{ name, slug, count }] }`. */
  taxonomy: (taxonomy: { data: readonly TaxonomyTerm[] }) => string;
  /** The article with its pictures' signed renditions (as is without an image proxy): for the JSON-LD. */
  renditions: (article: PublishedArticle) => PublishedArticle;
}

/** Field lists are subsets of ~20 names; a client could still ask for many combinations: keep a bounded set. */
const maxSparseSerializers = 64;

const compile = <F>(schema: unknown) => fastJson(schema as Record<string, unknown>) as unknown as F;

/**
 * `imgproxy` (undefined: renditions off) signs the pictures' renditions as an article is written, so their cost
 * is paid when an answer is built and cached (article-json-cache.ts, the response cache), never per request.
 */
export function createClientSerializers(imgproxy?: ImgproxySettings): ClientSerializers {
  const article: ArticleSerializer = imgproxy
    ? (published) => clientArticleJson(withRenditions(published, imgproxy))
    : clientArticleJson;
  // Sparse serialisers by field list (in the article's order, so equal lists share one), compiled once each.
  const sparse = new Map<string, ArticleSerializer>();
  return {
    article,
    articleWith(fields) {
      if (fields === null) return article;
      const key = fields.join(',');
      let serialize = sparse.get(key);
      if (!serialize) {
        const compiled = compile<ArticleSerializer>(articleSchemaWith(fields));
        serialize =
          imgproxy && fields.includes('renditions')
            ? (published) => compiled(withRenditions(published, imgproxy))
            : compiled;
        // Least recently compiled first out: the map keeps insertion order.
        if (sparse.size >= maxSparseSerializers) sparse.delete(sparse.keys().next().value as string);
        sparse.set(key, serialize);
      }
      return serialize;
    },
    meta: compile<ClientSerializers['meta']>(ClientPaginationMetaSchema),
    taxonomy: compile<ClientSerializers['taxonomy']>(ClientTaxonomySchema),
    renditions: imgproxy ? (published) => withRenditions(published, imgproxy) : (published) => published,
  };
}
