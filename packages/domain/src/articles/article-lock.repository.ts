import type { Tx } from '../db/create-db';

/**
 * Locks one article row until the transaction ends, so changes to its links (host sites)
 * are serialised and the article cannot be deleted underneath them. False when there is no such article.
 */
export async function lockArticleById(tx: Tx, id: string): Promise<boolean> {
  const row = await tx
    .selectFrom('articles')
    .select('id')
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  return row !== undefined;
}
