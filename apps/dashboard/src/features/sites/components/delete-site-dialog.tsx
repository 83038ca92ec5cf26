import type { Site } from '../../../api/sites';
import { articleCountOf, useDeleteSite } from '../../../api/sites';
import { ConfirmDialog } from '../../../components/confirm-dialog';

function articles(count: number): string {
  return `${count.toLocaleString()} ${count === 1 ? 'article' : 'articles'}`;
}

/** Asks before deleting a site, and says how many articles it carries and what happens to them. */
export function DeleteSiteDialog({ site, onClose }: { site: Site | null; onClose(): void }) {
  const remove = useDeleteSite();
  const count = site ? articleCountOf(site) : null;
  return (
    <ConfirmDialog
      open={site !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={`Delete ${site?.name ?? 'site'}?`}
      confirmLabel="Delete site"
      busy={remove.isPending}
      onConfirm={() => {
        if (site) remove.mutate(site.id, { onSuccess: onClose });
      }}
    >
      {count === null ? (
        <p>The articles on this site are not deleted.</p>
      ) : count.total === 0 ? (
        <p>No article is on this site.</p>
      ) : (
        <p>
          <strong>
            {site?.name} carries {articles(count.total)}
            {count.published > 0 && `, ${count.published.toLocaleString()} of them published`}.
          </strong>{' '}
          They are not deleted: they lose their link to this site and stop appearing in its client API at
          once. Articles that were only on this site are then on no site until you assign another.
        </p>
      )}
      <p>
        The site&apos;s API keys stop working, and publishers that used it as a default host site no longer
        do. This cannot be undone.
      </p>
    </ConfirmDialog>
  );
}
