import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { Site, SiteKey } from '../../../api/sites';
import { siteKeyListQuery, useCreateSiteKey, useRevokeSiteKey } from '../../../api/sites';
import { AuditLink } from '../../../components/audit-link';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { FormTextField } from '../../../components/form/form-fields';
import { useApiForm } from '../../../components/form/use-api-form';
import { ErrorState, LoadingState } from '../../../components/states';
import { TableHead } from '../../../components/table-head';
import { useToast } from '../../../components/toaster';
import { errorMessage } from '../../../lib/api-error';
import { fieldErrors } from '../../../lib/field-errors';
import { formatDateTime, formatRelative } from '../../../lib/format';
import { CreatedKeyNotice } from './created-key-notice';

/** A site's client API keys: the list (never the keys), a new key (shown once), revoke with confirmation. */
export function SiteKeys({ site }: { site: Site }) {
  const headingId = useId();
  const keys = useQuery(siteKeyListQuery(site.id));
  const create = useCreateSiteKey(site.id);
  const revoke = useRevokeSiteKey(site.id);
  const toast = useToast();
  const [revoking, setRevoking] = useState<SiteKey | null>(null);
  const { form, onSubmit, busy } = useApiForm({
    defaultValues: { name: '' },
    toBody: ({ name }) => ({ name: name.trim() }),
    schema: 'createSiteKey',
    mutation: { mutateAsync: ({ name }) => create.mutateAsync(name), isPending: create.isPending },
    // The one field says every refusal (a key name has no other place to be wrong).
    errorsOf: (error) => ({ name: fieldErrors(error, ['name'] as const).name ?? errorMessage(error) }),
    onSuccess: (_created, _values, reset) => reset(),
  });

  return (
    <section className="stack site-keys" aria-labelledby={headingId}>
      <h3 id={headingId}>API keys of {site.name}</h3>
      {create.data ? (
        <CreatedKeyNotice created={create.data} onDone={() => create.reset()} />
      ) : (
        <form
          className="row site-key-form"
          onSubmit={onSubmit}
          noValidate
          aria-label={`New API key for ${site.name}`}
        >
          <FormTextField
            control={form.control}
            name="name"
            label="Key name"
            placeholder="production"
            required
          />
          <Button type="submit" busy={busy}>
            Create key
          </Button>
        </form>
      )}
      {keys.isPending ? (
        <LoadingState label="Loading keys…" />
      ) : keys.isError ? (
        <ErrorState error={keys.error} onRetry={() => keys.refetch()} />
      ) : keys.data.data.length === 0 ? (
        <p className="muted">No keys yet: this site cannot read the client API.</p>
      ) : (
        <div className="table-wrap">
          <table className="table site-keys-table">
            <caption className="visually-hidden">API keys of {site.name}</caption>
            <TableHead columns={['Name', 'Starts with', 'Created', 'Last used', 'State']} />
            <tbody>
              {keys.data.data.map((key) => (
                <tr key={key.id}>
                  <td>{key.name}</td>
                  <td>
                    <code>{key.prefix}…</code>
                  </td>
                  <td>{formatDateTime(key.createdAt)}</td>
                  <td>{key.lastUsedAt ? formatRelative(key.lastUsedAt) : 'Never'}</td>
                  <td>{key.revokedAt ? `Revoked ${formatDateTime(key.revokedAt)}` : 'Active'}</td>
                  <td className="row">
                    <AuditLink filter={{ objectType: 'site_key', objectId: key.id }} of={`key ${key.name}`} />
                    {!key.revokedAt && (
                      <Button
                        size="small"
                        variant="danger"
                        onClick={() => setRevoking(key)}
                        aria-label={`Revoke key ${key.name}`}
                      >
                        Revoke
                      </Button>
                    )}
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
        title={`Revoke the key “${revoking?.name ?? ''}”?`}
        confirmLabel="Revoke key"
        busy={revoke.isPending}
        onConfirm={() => {
          if (!revoking) return;
          revoke.mutate(revoking.id, {
            onSuccess: () => {
              toast({ kind: 'success', title: `Key “${revoking.name}” revoked` });
              setRevoking(null);
            },
          });
        }}
      >
        <p>
          {site.name} can no longer read the client API with it: its requests are refused at once. This cannot
          be undone.
        </p>
      </ConfirmDialog>
    </section>
  );
}
