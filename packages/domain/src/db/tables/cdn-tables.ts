import type { ColumnType, Generated } from 'kysely';

// CDN purges (issue 33): the purge relay's position in the outbox, purges the outbox does not record, and the
// pending purges per provider and surrogate key.

export interface CdnPurgePositionTable {
  id: ColumnType<boolean, never, never>;
  xid: ColumnType<string, string, string>;
  article_id: string;
}

export interface CdnPurgeRequestTable {
  id: Generated<string>;
  key: string;
  requested_at: Generated<Date>;
}

export interface CdnPurgeTable {
  provider: string;
  key: string;
  generation: Generated<number>;
  requested_at: Generated<Date>;
  attempts: Generated<number>;
  next_attempt_at: Generated<Date>;
  claimed_until: Date | null;
}
