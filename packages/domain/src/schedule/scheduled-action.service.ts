import type { VersionedArticle } from '../articles/article';
import { changeArticleStatus, getArticle } from '../articles/article.service';
import { assertNotEmbargoed } from '../articles/embargo';
import { recordArticleRevision } from '../articles/revisions/revision-recorder';
import { type RevisionWrite, systemWrite } from '../articles/revisions/revision-write';
import type { Db, DbOrTx } from '../db/create-db';
import { ConflictError, DomainValidationError, NotFoundError } from '../errors';
import {
  cancelReleaseRows,
  findReleaseById,
  findReleases,
  insertRelease,
  updateReleaseDue,
} from './release.repository';
import {
  assertDueAtAllowed,
  maxReleaseActions,
  type Release,
  type ScheduledAction,
  type ScheduledActionKind,
  type ScheduleStatus,
} from './scheduled-action';
import {
  cancelScheduledActionRow,
  deferScheduledPublishes,
  findArticleEmbargoes,
  findScheduledActionById,
  findScheduledActions,
  insertScheduledActions,
  lockArticleForSchedule,
  type ScheduledActionFilter,
  updateArticleEmbargo,
  updateScheduledActionDue,
} from './scheduled-action.repository';

/** Who asked (a user id), or null for the system. */
export type Actor = string | null;

export async function listScheduledActions(
  db: DbOrTx,
  filter: ScheduledActionFilter,
  limit = 500,
): Promise<ScheduledAction[]> {
  return findScheduledActions(db, filter, limit);
}

export async function getScheduledAction(db: DbOrTx, id: string): Promise<ScheduledAction> {
  const action = await findScheduledActionById(db, id);
  if (!action) throw new NotFoundError('scheduled_action', id);
  return action;
}

/** A publish due before the article's embargo could never run: refused at once (409 ARTICLE_EMBARGOED). */
function assertPublishAllowed(
  kind: ScheduledActionKind,
  article: { id: string; embargoUntil: Date | null },
  dueAt: Date,
) {
  if (kind === 'publish') assertNotEmbargoed(article, dueAt);
}

/**
 * Schedules a publish or unpublish of one article at `dueAt` (at most a minute in the past: runs at once; at
 * most five years ahead). Whether the transition will be allowed is judged when it runs (the article may
 * change meanwhile); a publish before the article's embargo is refused now.
 */
export async function scheduleArticleAction(
  db: Db,
  input: { articleId: string; kind: ScheduledActionKind; dueAt: Date },
  actor: Actor,
  now: Date,
): Promise<ScheduledAction> {
  assertDueAtAllowed(input.dueAt, now);
  const article = await getArticle(db, input.articleId);
  assertPublishAllowed(input.kind, article, input.dueAt);
  const [id] = await insertScheduledActions(db, [{ ...input, createdBy: actor }]);
  return getScheduledAction(db, id as string);
}

async function explainUnchanged(db: DbOrTx, id: string): Promise<never> {
  const action = await getScheduledAction(db, id);
  if (action.releaseId !== null) {
    throw new ConflictError('ACTION_IN_RELEASE', `Action ${id} belongs to a release: change the release`);
  }
  throw new ConflictError('ACTION_NOT_SCHEDULED', `Action ${id} is ${action.status}, no longer scheduled`);
}

/** Moves a scheduled lone action to `dueAt` (409 when it already ran, was cancelled, or is in a release). */
export async function rescheduleScheduledAction(
  db: Db,
  id: string,
  dueAt: Date,
  now: Date,
): Promise<ScheduledAction> {
  assertDueAtAllowed(dueAt, now);
  const action = await getScheduledAction(db, id);
  if (action.kind === 'publish') {
    const embargo = (await findArticleEmbargoes(db, [action.articleId])).get(action.articleId) ?? null;
    assertNotEmbargoed({ id: action.articleId, embargoUntil: embargo }, dueAt);
  }
  if (!(await updateScheduledActionDue(db, id, dueAt))) await explainUnchanged(db, id);
  return getScheduledAction(db, id);
}

/** Cancels a scheduled lone action; the row stays, as `cancelled`. */
export async function cancelScheduledAction(db: Db, id: string): Promise<ScheduledAction> {
  if (!(await cancelScheduledActionRow(db, id))) await explainUnchanged(db, id);
  return getScheduledAction(db, id);
}

// Releases

export async function listReleases(
  db: DbOrTx,
  filter: { statuses?: readonly ScheduleStatus[]; from?: Date; to?: Date },
  limit = 200,
): Promise<Release[]> {
  return findReleases(db, filter, limit);
}

export async function getRelease(db: DbOrTx, id: string): Promise<Release> {
  const release = await findReleaseById(db, id);
  if (!release) throw new NotFoundError('release', id);
  return release;
}

/**
 * A release: `actions` (1..200, on existing articles) that the scheduler runs together at `dueAt`, in one
 * transaction: all of them, or none (then each is `failed` with the release's reason).
 */
export async function createRelease(
  db: Db,
  input: {
    name: string;
    dueAt: Date;
    actions: readonly { articleId: string; kind: ScheduledActionKind }[];
  },
  actor: Actor,
  now: Date,
): Promise<Release> {
  assertDueAtAllowed(input.dueAt, now);
  const name = input.name.trim();
  if (name === '') throw new DomainValidationError('INVALID_RELEASE', 'A release needs a name');
  if (input.actions.length === 0 || input.actions.length > maxReleaseActions) {
    throw new DomainValidationError(
      'INVALID_RELEASE',
      `A release holds 1 to ${maxReleaseActions} actions, not ${input.actions.length}`,
    );
  }
  const id = await db.transaction().execute(async (tx) => {
    const embargoes = await findArticleEmbargoes(tx, [...new Set(input.actions.map((a) => a.articleId))]);
    for (const action of input.actions) {
      if (!embargoes.has(action.articleId)) throw new NotFoundError('article', action.articleId);
      assertPublishAllowed(
        action.kind,
        { id: action.articleId, embargoUntil: embargoes.get(action.articleId) ?? null },
        input.dueAt,
      );
    }
    const releaseId = await insertRelease(tx, { name, dueAt: input.dueAt, createdBy: actor });
    await insertScheduledActions(
      tx,
      input.actions.map((action) => ({ ...action, dueAt: input.dueAt, releaseId, createdBy: actor })),
    );
    return releaseId;
  });
  return getRelease(db, id);
}

export async function rescheduleRelease(db: Db, id: string, dueAt: Date, now: Date): Promise<Release> {
  assertDueAtAllowed(dueAt, now);
  await db.transaction().execute(async (tx) => {
    const release = await getRelease(tx, id);
    const embargoes = await findArticleEmbargoes(
      tx,
      release.actions.map((a) => a.articleId),
    );
    for (const action of release.actions) {
      assertPublishAllowed(
        action.kind,
        { id: action.articleId, embargoUntil: embargoes.get(action.articleId) ?? null },
        dueAt,
      );
    }
    if (!(await updateReleaseDue(tx, id, dueAt))) {
      throw new ConflictError(
        'RELEASE_NOT_SCHEDULED',
        `Release ${id} is ${release.status}, no longer scheduled`,
      );
    }
  });
  return getRelease(db, id);
}

export async function cancelRelease(db: Db, id: string): Promise<Release> {
  await db.transaction().execute(async (tx) => {
    const release = await getRelease(tx, id);
    if (!(await cancelReleaseRows(tx, id))) {
      throw new ConflictError(
        'RELEASE_NOT_SCHEDULED',
        `Release ${id} is ${release.status}, no longer scheduled`,
      );
    }
  });
  return getRelease(db, id);
}

// Embargo

/**
 * Sets (or with null, lifts) the article's embargo: it may not appear on any child-site route before `until`.
 * In one transaction: a published article is taken back to draft now (its change-feed entry, webhook events and
 * cache invalidation go with it) and a publish is scheduled at `until`, which makes it appear at that time;
 * scheduled publishes due before `until` move to `until`. Lifting an embargo changes nothing else (a scheduled
 * publish stays where it is).
 */
export async function setArticleEmbargo(
  db: Db,
  id: string,
  until: Date | null,
  actor: Actor,
  now: Date,
  write: RevisionWrite = systemWrite,
): Promise<VersionedArticle> {
  if (until !== null) {
    if (until.getTime() <= now.getTime()) {
      throw new DomainValidationError(
        'INVALID_EMBARGO',
        `embargoUntil ${until.toISOString()} is not in the future`,
      );
    }
    assertDueAtAllowed(until, now);
  }
  await db.transaction().execute(async (tx) => {
    const article = await lockArticleForSchedule(tx, id);
    if (!article) throw new NotFoundError('article', id);
    if (until === null) {
      await updateArticleEmbargo(tx, id, null);
    } else {
      if (article.status === 'published') {
        // One revision for the whole write (recorded below), not one for the unpublish.
        await changeArticleStatus(tx, id, 'unpublish', now, null, null);
        await insertScheduledActions(tx, [
          { articleId: id, kind: 'publish', dueAt: until, createdBy: actor },
        ]);
      }
      await updateArticleEmbargo(tx, id, until);
      await deferScheduledPublishes(tx, id, until);
    }
    await recordArticleRevision(tx, id, write, now);
  });
  return getArticle(db, id);
}
