import { useState } from 'react';
import type { WebhookEndpoint } from '../../../api/webhooks';
import { useRotateWebhookSecret } from '../../../api/webhooks';
import { AuditLink } from '../../../components/audit-link';
import { Button } from '../../../components/button';
import { Badge } from '../../../components/status-badge';
import { formatDateTime, formatRelative } from '../../../lib/format';
import { EditWebhookForm } from './edit-webhook-form';
import { WebhookDeliveries } from './webhook-deliveries';
import { WebhookSecretNotice } from './webhook-secret-notice';

/** One endpoint: where, what, scope and state; edit, rotate the secret, delete, and its delivery log. */
export function WebhookCard({ endpoint, onDelete }: { endpoint: WebhookEndpoint; onDelete(): void }) {
  const [editing, setEditing] = useState(false);
  const [logOpen, setLogOpen] = useState(false);
  const rotate = useRotateWebhookSecret(endpoint.id);
  const logId = `webhook-log-${endpoint.id}`;

  return (
    <li className="card stack webhook-card">
      <div className="row-between">
        <div className="webhook-card-main">
          <h2 className="webhook-card-url">{endpoint.url}</h2>
          <p className="muted webhook-card-meta">
            {endpoint.site ? (
              <>
                Site <code>{endpoint.site}</code>
              </>
            ) : (
              'The whole network'
            )}{' '}
            · {endpoint.events.join(', ')}
          </p>
          <p className="webhook-card-meta">
            {endpoint.enabled ? <Badge tone="success">enabled</Badge> : <Badge tone="danger">disabled</Badge>}{' '}
            {!endpoint.enabled && endpoint.disabledReason && (
              <span>
                {endpoint.disabledReason}
                {endpoint.disabledAt && ` (${formatDateTime(endpoint.disabledAt)})`}
              </span>
            )}
            {endpoint.enabled && endpoint.failingSince && (
              <span className="field-error">Failing since {formatRelative(endpoint.failingSince)}</span>
            )}
          </p>
          {endpoint.previousSecretExpiresAt && new Date(endpoint.previousSecretExpiresAt) > new Date() && (
            <p className="muted webhook-card-meta">
              The previous secret also signs until {formatDateTime(endpoint.previousSecretExpiresAt)}.
            </p>
          )}
        </div>
        {!editing && (
          <div className="row">
            <AuditLink filter={{ objectType: 'webhook', objectId: endpoint.id }} of={endpoint.url} />
            <Button size="small" onClick={() => setEditing(true)} aria-label={`Edit ${endpoint.url}`}>
              Edit
            </Button>
            <Button
              size="small"
              busy={rotate.isPending}
              onClick={() => rotate.mutate()}
              aria-label={`Rotate secret of ${endpoint.url}`}
            >
              Rotate secret
            </Button>
            <Button size="small" variant="danger" onClick={onDelete} aria-label={`Delete ${endpoint.url}`}>
              Delete
            </Button>
          </div>
        )}
      </div>
      {rotate.data && (
        <WebhookSecretNotice
          secret={rotate.data.secret}
          previousExpiresAt={rotate.data.previousSecretExpiresAt}
          onDone={() => rotate.reset()}
        />
      )}
      {editing && <EditWebhookForm endpoint={endpoint} onDone={() => setEditing(false)} />}
      <div>
        <Button
          size="small"
          aria-expanded={logOpen}
          aria-controls={logId}
          onClick={() => setLogOpen((open) => !open)}
        >
          Delivery log <span className="visually-hidden">of {endpoint.url}</span>
        </Button>
      </div>
      <div id={logId} hidden={!logOpen}>
        {logOpen && <WebhookDeliveries endpoint={endpoint} />}
      </div>
    </li>
  );
}
