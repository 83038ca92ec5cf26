import { useState } from 'react';
import type { Site } from '../../../api/sites';
import { articleCountOf } from '../../../api/sites';
import { AuditLink } from '../../../components/audit-link';
import { Button } from '../../../components/button';
import { EditSiteForm } from './edit-site-form';
import { SiteKeys } from './site-keys';

/** One child site: what it is, edit, delete, and its API keys (opened on demand). */
export function SiteCard({ site, onDelete }: { site: Site; onDelete(): void }) {
  const [editing, setEditing] = useState(false);
  const [keysOpen, setKeysOpen] = useState(false);
  const count = articleCountOf(site);
  const keysId = `site-keys-${site.id}`;

  return (
    <li className="card stack site-card">
      <div className="row-between">
        <div>
          <h2 className="site-card-name">{site.name}</h2>
          <p className="muted site-card-meta">
            <code>{site.slug}</code> · {site.domain ?? 'no domain'}
            {count !== null &&
              ` · ${count.total.toLocaleString()} ${count.total === 1 ? 'article' : 'articles'} (${count.published.toLocaleString()} published)`}
          </p>
          <p className="muted site-card-meta">
            {site.articleUrlTemplate ? (
              <>
                Articles at <code>{site.articleUrlTemplate}</code> · feeds and sitemaps on ({site.language})
              </>
            ) : (
              'No article URL template: no feeds or sitemaps'
            )}
          </p>
          <p className="muted site-card-meta">
            {site.allowedOrigins.length > 0
              ? `Browsers may read from ${site.allowedOrigins.join(', ')}`
              : 'No browser origin may read its content'}
          </p>
        </div>
        {!editing && (
          <div className="row">
            <AuditLink filter={{ site: site.id }} of={`site ${site.name}`} />
            <Button size="small" onClick={() => setEditing(true)} aria-label={`Edit ${site.name}`}>
              Edit
            </Button>
            <Button size="small" variant="danger" onClick={onDelete} aria-label={`Delete ${site.name}`}>
              Delete
            </Button>
          </div>
        )}
      </div>
      {editing && <EditSiteForm site={site} onDone={() => setEditing(false)} />}
      <div>
        <Button
          size="small"
          aria-expanded={keysOpen}
          aria-controls={keysId}
          onClick={() => setKeysOpen((open) => !open)}
        >
          API keys <span className="visually-hidden">of {site.name}</span>
        </Button>
      </div>
      <div id={keysId} hidden={!keysOpen}>
        {keysOpen && <SiteKeys site={site} />}
      </div>
    </li>
  );
}
