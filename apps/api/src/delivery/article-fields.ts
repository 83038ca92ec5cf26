import type { TSchema } from 'typebox';
import { Type } from 'typebox';
import { ClientArticleSchema } from '../schemas/client-article.schema';

// Sparse fieldsets (`fields=`): the article schema narrowed to the asked fields. Its serialiser is compiled
// and memoised by field list in client-serializers.ts.

/** The article schema narrowed to `fields` (given in the article's own order, see fieldsOf). */
export function articleSchemaWith(fields: readonly string[]): TSchema {
  return Type.Pick(ClientArticleSchema, fields as Array<keyof typeof ClientArticleSchema.properties>);
}
