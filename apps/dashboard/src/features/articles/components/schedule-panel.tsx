import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Article, VersionedArticle } from '../../../api/articles';
import { useArticleTransition } from '../../../api/articles';
import { useCanEach } from '../../../api/permissions';
import {
  scheduledActionsQuery,
  useCancelAction,
  useScheduleAction,
  useSetEmbargo,
} from '../../../api/schedule';
import { siteChoicesQuery } from '../../../api/sites';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useToast } from '../../../components/toaster';
import { errorMessage } from '../../../lib/api-error';
import { formatWithZone, fromLocalInput, localTimeZone, toLocalInput } from '../../../lib/time-zone';

type When = 'now' | 'at';

/** The article's public URLs: one per host site with an article URL template. */
function useSiteUrls(article: Article): { site: string; url: string }[] {
  const sites = useQuery(siteChoicesQuery).data?.data ?? [];
  return sites
    .filter((site) => article.hostSites.includes(site.slug) && site.articleUrlTemplate)
    .map((site) => ({
      site: site.name,
      url: (site.articleUrlTemplate as string).replace(/\{(slug|domain)\}/g, (_, name: string) =>
        name === 'slug' ? encodeURIComponent(article.slug) : (site.domain ?? ''),
      ),
    }));
}

/**
 * Publishing on a clock: Now or At (a date and time in the editor's time zone, named), confirmed with where and
 * when the article will appear; the embargo, shown prominently and set or lifted here; the article's pending
 * and failed scheduled actions, each cancellable; "View on site" once it is live.
 */
export function SchedulePanel({
  article,
  onChanged,
}: {
  article: Article;
  onChanged(saved: VersionedArticle): void;
}) {
  const toast = useToast();
  const zone = localTimeZone();
  const embargo = article.embargoUntil;
  const [when, setWhen] = useState<When>(embargo ? 'at' : 'now');
  const [at, setAt] = useState(() => toLocalInput(new Date(embargo ?? Date.now() + 3600_000)));
  const [embargoInput, setEmbargoInput] = useState(() => toLocalInput(new Date(Date.now() + 3600_000)));
  const [confirming, setConfirming] = useState(false);
  // Each control shows only when the policy allows its operation on this article (scheduling names the
  // article in its body: the `named-articles` scope; cancelling, the action's article: `scheduled-action`).
  const can = useCanEach() ?? (() => false);
  const itself = { kind: 'article', article } as const;
  const named = { kind: 'named-articles', articles: [article] } as const;
  const kind = article.status === 'published' ? 'unpublish' : 'publish';
  const canNow = can(`${kind}Article`, itself);
  const canSchedule = can('scheduleArticleAction', named);
  const canEmbargo = can('setArticleEmbargo', itself);
  const canCancel = can('cancelScheduledAction', named);
  const canList = can('listScheduledActions', named);
  const actions = useQuery({
    ...scheduledActionsQuery({ articleId: article.id, status: 'scheduled,failed' }),
    enabled: canList,
  });
  const schedule = useScheduleAction();
  const cancel = useCancelAction();
  const transition = useArticleTransition();
  const setEmbargo = useSetEmbargo();
  const siteUrls = useSiteUrls(article);
  // The choice the policy leaves: only Now or only At when the other is refused.
  const chosen: When = !canSchedule ? 'now' : !canNow ? 'at' : when;
  const dueAt = chosen === 'at' ? fromLocalInput(at) : null;
  const where = article.hostSites.length > 0 ? article.hostSites.join(', ') : 'no site yet (no host sites)';
  const canAct = (article.status === 'draft' || article.status === 'published') && (canNow || canSchedule);

  function confirm() {
    setConfirming(false);
    const done = (text: string) => toast({ kind: 'success', title: text });
    const failed = (error: unknown) => toast({ kind: 'error', title: errorMessage(error) });
    if (chosen === 'now') {
      transition.mutate(
        { id: article.id, action: kind },
        {
          onSuccess: (saved) => {
            onChanged(saved);
            done(kind === 'publish' ? 'Published' : 'Unpublished');
          },
          onError: failed,
        },
      );
    } else if (dueAt) {
      schedule.mutate(
        { articleId: article.id, kind, dueAt },
        { onSuccess: () => done(`Scheduled for ${formatWithZone(dueAt)}`), onError: failed },
      );
    }
  }

  if (!canNow && !canSchedule && !canEmbargo && !canList && article.status !== 'published') return null;
  return (
    <section className="card stack schedule-panel" aria-label="Publishing time">
      <h2>Publishing time</h2>
      {embargo && (
        <div className="alert alert-warning embargo-banner" role="status">
          <strong>Embargoed until {formatWithZone(embargo)}</strong>
          <span>It appears on no site before then, whatever is clicked.</span>
          {canEmbargo && (
            <Button
              data-operation="setArticleEmbargo"
              busy={setEmbargo.isPending}
              onClick={() =>
                setEmbargo.mutate(
                  { id: article.id, embargoUntil: null },
                  { onSuccess: onChanged, onError: (e) => toast({ kind: 'error', title: errorMessage(e) }) },
                )
              }
            >
              Lift embargo
            </Button>
          )}
        </div>
      )}
      {canAct && (
        <fieldset className="stack schedule-when">
          <legend>{kind === 'publish' ? 'Publish' : 'Unpublish'}</legend>
          {canNow && canSchedule && (
            <>
              <label className="row">
                <input
                  type="radio"
                  name="when"
                  value="now"
                  checked={chosen === 'now'}
                  disabled={Boolean(embargo)}
                  onChange={() => setWhen('now')}
                />
                Now
              </label>
              <label className="row">
                <input
                  type="radio"
                  name="when"
                  value="at"
                  checked={chosen === 'at'}
                  onChange={() => setWhen('at')}
                />
                At
              </label>
            </>
          )}
          {chosen === 'at' && (
            <label className="stack">
              <span>
                Date and time <span className="muted">({zone})</span>
              </span>
              <input
                type="datetime-local"
                step={1}
                value={at}
                onChange={(event) => setAt(event.target.value)}
                aria-label={`Date and time (${zone})`}
              />
            </label>
          )}
          <Button
            data-operation={chosen === 'now' ? `${kind}Article` : 'scheduleArticleAction'}
            disabled={chosen === 'at' && !dueAt}
            busy={schedule.isPending || transition.isPending}
            onClick={() => setConfirming(true)}
          >
            {chosen === 'now'
              ? kind === 'publish'
                ? 'Publish now…'
                : 'Unpublish now…'
              : `Schedule ${kind}…`}
          </Button>
        </fieldset>
      )}
      {article.status === 'published' && siteUrls.length > 0 && (
        <ul className="stack view-on-site">
          {siteUrls.map(({ site, url }) => (
            <li key={url}>
              <a href={url} target="_blank" rel="noreferrer noopener">
                View on site: {site}
              </a>
            </li>
          ))}
        </ul>
      )}
      {canList && (
        <div className="stack">
          <h3>Scheduled</h3>
          {(actions.data ?? []).length === 0 ? (
            <p className="muted">Nothing scheduled for this article.</p>
          ) : (
            <ul className="stack schedule-list">
              {(actions.data ?? []).map((action) => (
                <li key={action.id} className={action.status === 'failed' ? 'schedule-failed' : undefined}>
                  <span>
                    {action.kind === 'publish' ? 'Publish' : 'Unpublish'} at {formatWithZone(action.dueAt)}
                    {action.releaseName ? ` (release ${action.releaseName})` : ''}
                  </span>
                  {action.status === 'failed' ? (
                    <strong> Failed: {action.failureReason}</strong>
                  ) : (
                    !action.releaseId &&
                    canCancel && (
                      <Button
                        data-operation="cancelScheduledAction"
                        busy={cancel.isPending}
                        onClick={() => cancel.mutate(action.id)}
                      >
                        Cancel
                      </Button>
                    )
                  )}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {!embargo && canAct && canEmbargo && (
        <details>
          <summary>Embargo</summary>
          <div className="stack">
            <label className="stack">
              <span>
                Not before <span className="muted">({zone})</span>
              </span>
              <input
                type="datetime-local"
                step={1}
                value={embargoInput}
                onChange={(event) => setEmbargoInput(event.target.value)}
                aria-label={`Embargo until (${zone})`}
              />
            </label>
            <Button
              data-operation="setArticleEmbargo"
              busy={setEmbargo.isPending}
              disabled={!fromLocalInput(embargoInput)}
              onClick={() =>
                setEmbargo.mutate(
                  { id: article.id, embargoUntil: fromLocalInput(embargoInput) },
                  {
                    onSuccess: (saved) => {
                      onChanged(saved);
                      toast({ kind: 'success', title: 'Embargo set' });
                    },
                    onError: (e) => toast({ kind: 'error', title: errorMessage(e) }),
                  },
                )
              }
            >
              Set embargo
            </Button>
            {article.status === 'published' && (
              <p className="muted">
                A published article leaves every site now and comes back at the embargo.
              </p>
            )}
          </div>
        </details>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={kind === 'publish' ? 'Publish this article?' : 'Unpublish this article?'}
        confirmLabel={chosen === 'now' ? (kind === 'publish' ? 'Publish now' : 'Unpublish now') : 'Schedule'}
        onConfirm={confirm}
      >
        <p>
          “{article.title}” will {kind === 'publish' ? 'appear on' : 'leave'} {where}{' '}
          {chosen === 'now' ? 'now' : `at ${dueAt ? formatWithZone(dueAt) : '—'} (${zone})`}.
        </p>
      </ConfirmDialog>
    </section>
  );
}
