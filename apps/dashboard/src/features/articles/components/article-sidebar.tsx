import { useState } from 'react';
import type { Article } from '../../../api/articles';
import {
  type ArticleTransition,
  useArticleTransition,
  useDeleteArticle,
  type VersionedArticle,
} from '../../../api/articles';
import { useCanEach } from '../../../api/permissions';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ArticleStatusBadge } from '../../../components/status-badge';
import { TextField } from '../../../components/text-field';
import { useToast } from '../../../components/toaster';
import { formatDateTime } from '../../../lib/format';
import type { ArticleDraft } from './article-draft';
import { HostSitesField } from './host-sites-field';
import { ImageUploadField } from './image-upload-field';
import { ReviewDecisionActions } from './review-decision-actions';
import { SchedulePanel } from './schedule-panel';
import { TagChips } from './tag-chips';

type Errors = Partial<Record<keyof ArticleDraft, string>>;

/** Status and actions, then the article's metadata fields. */
export function ArticleSidebar({
  article,
  draft,
  dirty,
  readOnly,
  status,
  errors,
  saving,
  onChange,
  saveFirst,
  onDeleted,
  onTransitioned,
}: {
  article: Article | null;
  draft: ArticleDraft;
  dirty: boolean;
  /** The user may read the article but not change it: its fields are shown disabled. */
  readOnly: boolean;
  /** The save status line ("Unsaved changes", "Saved 12:04"). */
  status: string;
  errors: Errors;
  saving: boolean;
  onChange<K extends keyof ArticleDraft>(key: K, value: ArticleDraft[K]): void;
  saveFirst(): Promise<VersionedArticle | null>;
  onDeleted(): void;
  onTransitioned(saved: VersionedArticle): void;
}) {
  const toast = useToast();
  const transition = useArticleTransition();
  const remove = useDeleteArticle();
  const [confirmDelete, setConfirmDelete] = useState(false);
  // The actions the policy allows on this article (GET /auth/permissions); a refused one is not shown.
  const can = useCanEach() ?? (() => false);
  const itself = article ? ({ kind: 'article', article } as const) : undefined;
  const saveOperation = article ? 'updateArticle' : 'createArticle';
  const transitionOperation = article?.status === 'published' ? 'unpublishArticle' : 'publishArticle';

  async function run(action: ArticleTransition) {
    if (!article) return;
    // Publishing what is on screen: unsaved changes are saved first (and a conflict stops here).
    if (dirty && !(await saveFirst())) return;
    transition.mutate(
      { id: article.id, action },
      {
        onSuccess: (saved) => {
          onTransitioned(saved);
          toast({ kind: 'success', title: action === 'publish' ? 'Published' : 'Unpublished' });
        },
      },
    );
  }

  return (
    <aside className="article-editor-side stack" aria-label="Publishing and details">
      <section className="card stack article-actions" aria-label="Status and actions">
        <div className="row" style={{ justifyContent: 'space-between' }}>
          <span>
            Status: <ArticleStatusBadge status={article?.status ?? 'new'} />
          </span>
          <span className="muted" aria-live="polite">
            {status}
          </span>
        </div>
        {article?.publishedAt && (
          <span className="muted">Published {formatDateTime(article.publishedAt)}</span>
        )}
        <div className="row">
          {can(saveOperation, itself) && (
            <Button type="submit" variant="primary" busy={saving} data-operation={saveOperation}>
              {article ? 'Save' : 'Create draft'}
            </Button>
          )}
          {/* One element for both: the focus stays on it when Publish turns into Unpublish. */}
          {(article?.status === 'draft' || article?.status === 'published') &&
            can(transitionOperation, itself) && (
              <Button
                data-operation={transitionOperation}
                busy={transition.isPending}
                onClick={() => void run(article.status === 'draft' ? 'publish' : 'unpublish')}
              >
                {article.status === 'published' ? 'Unpublish' : dirty ? 'Save and publish' : 'Publish'}
              </Button>
            )}
          {article && can('deleteArticle', itself) && (
            <Button variant="danger" data-operation="deleteArticle" onClick={() => setConfirmDelete(true)}>
              Delete
            </Button>
          )}
        </div>
        {article && (
          <ReviewDecisionActions
            article={article}
            dirty={dirty}
            saveFirst={saveFirst}
            onTransitioned={onTransitioned}
          />
        )}
      </section>
      {article && <SchedulePanel article={article} onChanged={onTransitioned} />}
      {article?.isAggregated && (
        <section className="card stack" aria-label="Imported from">
          <h2>Imported article</h2>
          <dl className="details-list">
            <dt>Source</dt>
            <dd>{article.source ?? '—'}</dd>
            <dt>Source URL</dt>
            <dd className="break-anywhere">
              {article.sourceUrl ? (
                <a href={article.sourceUrl} target="_blank" rel="noreferrer noopener">
                  {article.sourceUrl}
                </a>
              ) : (
                '—'
              )}
            </dd>
            <dt>Originally published</dt>
            <dd>{article.sourcePublishedAt ? formatDateTime(article.sourcePublishedAt) : '—'}</dd>
            <dt>Imported</dt>
            <dd>{formatDateTime(article.createdAt)}</dd>
          </dl>
        </section>
      )}
      <fieldset className="plain stack" disabled={readOnly}>
        <HostSitesField
          value={draft.hostSites}
          onChange={(v) => onChange('hostSites', v)}
          error={errors.hostSites}
        />
        <TagChips label="Tags" tags={draft.tags} onChange={(v) => onChange('tags', v)} error={errors.tags} />
        <TextField
          label="Category"
          value={draft.category}
          maxLength={100}
          onChange={(e) => onChange('category', e.target.value)}
          error={errors.category}
        />
        <TextField
          label="Section"
          value={draft.section}
          maxLength={100}
          onChange={(e) => onChange('section', e.target.value)}
          error={errors.section}
        />
        <ImageUploadField
          label="Thumbnail"
          value={draft.thumbnail}
          onChange={(v) => onChange('thumbnail', v)}
          error={errors.thumbnail}
          disabled={readOnly}
        />
        <ImageUploadField
          label="Image"
          value={draft.image}
          onChange={(v) => onChange('image', v)}
          error={errors.image}
          disabled={readOnly}
        />
      </fieldset>
      <ConfirmDialog
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        title="Delete this article?"
        confirmLabel="Delete article"
        busy={remove.isPending}
        onConfirm={() =>
          article &&
          remove.mutate(article.id, {
            onSuccess: () => {
              setConfirmDelete(false);
              toast({ kind: 'success', title: 'Article deleted' });
              onDeleted();
            },
          })
        }
      >
        <p>
          “{article?.title}” is removed for good, from every site.
          {article?.isAggregated &&
            ' If it is still in the feed, the next import brings it back: reject it instead to keep it out.'}
        </p>
      </ConfirmDialog>
    </aside>
  );
}
