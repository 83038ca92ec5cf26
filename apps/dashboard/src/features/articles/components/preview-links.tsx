import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import {
  type PreviewLink,
  previewLinkListQuery,
  useCreatePreviewLink,
  useRevokePreviewLink,
} from '../../../api/preview-links';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ShownOnceSecret } from '../../../components/shown-once-secret';
import { ErrorState, LoadingState } from '../../../components/states';
import { TableHead } from '../../../components/table-head';
import { useToast } from '../../../components/toaster';
import { errorMessage } from '../../../lib/api-error';
import { formatDateTime } from '../../../lib/format';

const lifetimes = [
  { hours: 24, label: '1 day' },
  { hours: 168, label: '7 days' },
  { hours: 720, label: '30 days' },
] as const;

/** Where a token is read: the API's preview route on this origin (the API serves the dashboard). */
export const previewUrlOf = (path: string) => `${window.location.origin}${path}`;

/**
 * An article's preview links (issue 29): make one (live or pinned, with a lifetime), copy it (shown once), the
 * links that still open, revoke with confirmation. No <form>: it sits inside the editor's form.
 */
export function PreviewLinks({ articleId, dirty }: { articleId: string; dirty: boolean }) {
  const headingId = useId();
  const modeId = useId();
  const lifetimeId = useId();
  const links = useQuery(previewLinkListQuery(articleId));
  const create = useCreatePreviewLink(articleId);
  const revoke = useRevokePreviewLink(articleId);
  const toast = useToast();
  const [pinned, setPinned] = useState(false);
  const [hours, setHours] = useState(168);
  const [revoking, setRevoking] = useState<PreviewLink | null>(null);

  function createLink() {
    create.mutate(
      { pinned, expiresInHours: hours },
      { onError: (error) => toast({ kind: 'error', title: errorMessage(error) }) },
    );
  }

  return (
    <section className="card stack preview-links" aria-labelledby={headingId}>
      <h2 id={headingId}>Preview links</h2>
      <p className="muted">
        Anyone with a link can read this article as saved, published or not, without a key, until the link
        expires or is revoked. Search engines are told not to index it.
      </p>
      {create.data ? (
        <ShownOnceSecret
          title="Copy the preview link now"
          label="New preview link"
          value={previewUrlOf(create.data.path)}
          copyLabel="Copy link"
          doneLabel="Done"
          onDone={() => create.reset()}
        >
          <p>
            It is shown only this once. It expires {formatDateTime(create.data.expiresAt)}. A child site's
            preview route takes the token, the part after <code>/preview/</code>.
          </p>
        </ShownOnceSecret>
      ) : (
        <div className="row preview-link-form">
          <div className="field">
            <label htmlFor={modeId}>Shows</label>
            <select
              id={modeId}
              value={pinned ? 'pinned' : 'live'}
              onChange={(event) => setPinned(event.target.value === 'pinned')}
            >
              <option value="live">Live: every later save</option>
              <option value="pinned">Pinned: this saved version</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor={lifetimeId}>Expires after</label>
            <select id={lifetimeId} value={hours} onChange={(event) => setHours(Number(event.target.value))}>
              {lifetimes.map((lifetime) => (
                <option key={lifetime.hours} value={lifetime.hours}>
                  {lifetime.label}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <span className="field-label" aria-hidden="true">
              &nbsp;
            </span>
            <Button onClick={createLink} busy={create.isPending} data-operation="createArticlePreviewLink">
              Create preview link
            </Button>
          </div>
        </div>
      )}
      {dirty && <p className="field-hint">Unsaved changes are not in any preview until they are saved.</p>}
      {links.isPending ? (
        <LoadingState label="Loading preview links…" />
      ) : links.isError ? (
        <ErrorState error={links.error} onRetry={() => links.refetch()} />
      ) : links.data.data.length === 0 ? (
        <p className="muted">No active preview links.</p>
      ) : (
        <div className="table-wrap">
          <table className="table preview-links-table">
            <caption className="visually-hidden">Active preview links</caption>
            <TableHead columns={['Starts with', 'Shows', 'Expires']} />
            <tbody>
              {links.data.data.map((link) => (
                <tr key={link.id}>
                  <td>
                    <code>{link.prefix}…</code>
                  </td>
                  <td>{link.pinned ? 'Pinned' : 'Live'}</td>
                  <td>{formatDateTime(link.expiresAt)}</td>
                  <td>
                    <Button
                      size="small"
                      variant="danger"
                      onClick={() => setRevoking(link)}
                      aria-label={`Revoke preview link ${link.prefix}`}
                    >
                      Revoke
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => {
          if (!open) setRevoking(null);
        }}
        title={`Revoke the preview link ${revoking?.prefix ?? ''}…?`}
        confirmLabel="Revoke link"
        busy={revoke.isPending}
        onConfirm={() => {
          if (!revoking) return;
          revoke.mutate(revoking.id, {
            onSuccess: () => {
              toast({ kind: 'success', title: 'Preview link revoked' });
              setRevoking(null);
            },
            onError: (error) => toast({ kind: 'error', title: errorMessage(error) }),
          });
        }}
      >
        <p>
          Whoever has it can no longer open the preview: it answers “not found” at once. This cannot be
          undone.
        </p>
      </ConfirmDialog>
    </section>
  );
}
