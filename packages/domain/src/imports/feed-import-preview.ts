import type { DbOrTx } from '../db/create-db';
import { decideFeedItems, type ItemDecision } from './import-decision';
import { type ImportableFeedItem, type ImportedArticleDraft, toImportedArticle } from './imported-article';
import { findImportedGuids } from './imported-guids.repository';
import type { PublisherFeedSettings } from './publisher-feed-settings.repository';

/** One previewed item: the article it would become and what the publisher's rules decide about it. */
export interface PreviewedItem {
  article: ImportedArticleDraft;
  decision: ItemDecision;
}

/**
 * What an import of `items` would do for the publisher, without saving anything (the test-feed
 * preview): per item, the article it would become and the decision of the rules (decideFeedItems,
 * the import's own), `alreadyImported` being the guids the publisher has. The per-fetch cap applies
 * to the items given. Uses the import's own mapping, so the preview cannot drift from it.
 */
export function previewFeedImport(
  publisher: PublisherFeedSettings,
  items: readonly ImportableFeedItem[],
  now: Date = new Date(),
  alreadyImported: ReadonlySet<string> = new Set(),
): PreviewedItem[] {
  const decisions = decideFeedItems(items, publisher.importRules, alreadyImported);
  return items.map((item, index) => ({
    article: toImportedArticle(item, publisher, now),
    decision: decisions[index] as ItemDecision,
  }));
}

/** previewFeedImport of a fetched feed's items, with the guids the publisher already has looked up (one query). */
export async function previewFeedItems(
  db: DbOrTx,
  publisher: PublisherFeedSettings,
  items: readonly ImportableFeedItem[],
): Promise<PreviewedItem[]> {
  const known = await findImportedGuids(
    db,
    publisher.id,
    items.map((item) => item.guid),
  );
  return previewFeedImport(publisher, items, new Date(), known);
}
