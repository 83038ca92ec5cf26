import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { TextField } from '../../../components/text-field';
import { useToast } from '../../../components/toaster';
import { ApiError, errorMessage } from '../../../lib/api-error';
import type { Article } from '../../../lib/api-types';
import { fieldErrors } from '../../../lib/field-errors';
import { fetchArticle, useCreateArticle, useSaveArticle, type VersionedArticle } from '../api/articles';
import {
  type ArticleDraft,
  changedFields,
  createBody,
  draftOf,
  emptyDraft,
  hostSitesChanged,
  isDirty,
} from './article-draft';
import { ArticlePreview } from './article-preview';
import { ArticleSidebar } from './article-sidebar';
import { ConflictDialog } from './conflict-dialog';
import { RichTextEditor } from './rich-text-editor';
import { SlugField } from './slug-field';
import { moveToBodyOnEnter } from './title-keys';
import { useUnsavedChanges } from './use-unsaved-changes';
import './articles.css';

const fields = [
  'title',
  'slug',
  'body',
  'tags',
  'category',
  'section',
  'thumbnail',
  'image',
  'hostSites',
] as const;

/** Validation errors and the field-specific codes appear next to their field, not as a toast. */
const shownByFields = (error: unknown) =>
  error instanceof ApiError && (error.status === 400 || error.code === 'SLUG_TAKEN');

/** The state of one editing session: the version it started from and the person's draft. */
interface Session {
  article: Article | null;
  etag: string | null;
  base: ArticleDraft;
}

/** /articles/new and /articles/:id: every field, saved with the version it was made on (If-Match). */
export function ArticleEditor({ loaded }: { loaded?: VersionedArticle | undefined }) {
  const navigate = useNavigate();
  const toast = useToast();
  const create = useCreateArticle();
  const save = useSaveArticle();
  const [session, setSession] = useState<Session>(() => ({
    article: loaded?.article ?? null,
    etag: loaded?.etag ?? null,
    base: loaded ? draftOf(loaded.article) : emptyDraft,
  }));
  const [draft, setDraft] = useState<ArticleDraft>(session.base);
  // A new key remounts the rich-text editor with another body (after Reload).
  const [bodyVersion, setBodyVersion] = useState(0);
  const [conflict, setConflict] = useState(false);
  const [resolving, setResolving] = useState(false);
  const dirty = isDirty(session.base, draft);
  const blocker = useUnsavedChanges(dirty);
  const { article } = session;

  const set = <K extends keyof ArticleDraft>(key: K, value: ArticleDraft[K]) =>
    setDraft((current) => ({ ...current, [key]: value }));
  const errors = fieldErrors(article ? save.error : create.error, fields, {
    SLUG_TAKEN: 'slug',
    UNKNOWN_SITE: 'hostSites',
  });

  function settle(saved: VersionedArticle, sentBody: string) {
    // What was sent is the body now: the server may serialise the same markup differently.
    const next = { ...draftOf(saved.article), body: sentBody };
    setSession({ article: saved.article, etag: saved.etag, base: next });
    setDraft((current) => ({ ...next, body: current.body }));
  }

  /** Saves the draft's changes; answers the saved version, or null when it did not save (conflict, errors). */
  async function saveDraft(ifMatch = session.etag): Promise<VersionedArticle | null> {
    if (!article) return null;
    const sentBody = draft.body;
    try {
      const saved = await save.mutateAsync({
        id: article.id,
        changes: changedFields(session.base, draft),
        hostSites: hostSitesChanged(session.base, draft) ? draft.hostSites : undefined,
        ifMatch,
      });
      settle(saved, sentBody);
      return saved;
    } catch (error) {
      if (error instanceof ApiError && error.status === 412) setConflict(true);
      else if (!shownByFields(error)) toast({ kind: 'error', title: errorMessage(error) });
      return null;
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!article) {
      create.mutate(createBody(draft), {
        onError: (error) => {
          if (!shownByFields(error)) toast({ kind: 'error', title: errorMessage(error) });
        },
        onSuccess: (created) => {
          toast({ kind: 'success', title: 'Draft created' });
          void navigate({ to: '/articles/$id', params: { id: created.id }, ignoreBlocker: true });
        },
      });
      return;
    }
    if (await saveDraft()) toast({ kind: 'success', title: 'Saved' });
  }

  async function reload() {
    if (!article) return;
    setResolving(true);
    try {
      const latest = await fetchArticle(article.id);
      const next = draftOf(latest.article);
      setSession({ article: latest.article, etag: latest.etag, base: next });
      setDraft(next);
      setBodyVersion((v) => v + 1);
      setConflict(false);
    } catch (error) {
      toast({ kind: 'error', title: errorMessage(error) });
    } finally {
      setResolving(false);
    }
  }

  async function overwrite() {
    if (!article) return;
    setResolving(true);
    try {
      // Their version's tag: the fields changed here are saved over it, the others stay as they saved them.
      const latest = await fetchArticle(article.id);
      if (await saveDraft(latest.etag)) {
        setConflict(false);
        toast({ kind: 'success', title: 'Saved over the other version' });
      }
    } catch (error) {
      toast({ kind: 'error', title: errorMessage(error) });
    } finally {
      setResolving(false);
    }
  }

  return (
    <form className="article-editor" onSubmit={submit} aria-label="Article" noValidate>
      <div className="article-editor-main stack">
        <TextField
          label="Title"
          name="title"
          required
          value={draft.title}
          maxLength={300}
          onChange={(event) => set('title', event.target.value)}
          onKeyDown={moveToBodyOnEnter}
          error={errors.title}
        />
        {article ? (
          <SlugField
            articleId={article.id}
            slug={draft.slug}
            savedSlug={session.base.slug}
            title={draft.title}
            onChange={(slug) => set('slug', slug)}
            error={errors.slug}
          />
        ) : (
          <p className="muted">
            The slug is made from the title when the draft is first saved; it can be changed then.
          </p>
        )}
        <RichTextEditor
          key={bodyVersion}
          label="Body"
          value={draft.body}
          onChange={(body) => set('body', body)}
        />
        {errors.body && <span className="field-error">{errors.body}</span>}
        <details className="card article-preview-box">
          <summary>Preview as a child site</summary>
          <ArticlePreview
            draft={draft}
            source={article?.source ?? null}
            publishedAt={article?.publishedAt ?? null}
          />
        </details>
      </div>
      <ArticleSidebar
        article={article}
        draft={draft}
        dirty={dirty}
        errors={errors}
        saving={save.isPending || create.isPending}
        onChange={set}
        saveFirst={saveDraft}
        onDeleted={() => void navigate({ to: '/articles', ignoreBlocker: true })}
        onTransitioned={(saved) => settle(saved, draft.body)}
      />
      <ConflictDialog
        open={conflict}
        busy={resolving}
        onReload={reload}
        onOverwrite={overwrite}
        onCancel={() => setConflict(false)}
      />
      <ConfirmDialog
        open={blocker.status === 'blocked'}
        onOpenChange={(open) => !open && blocker.reset?.()}
        title="Leave without saving?"
        confirmLabel="Leave without saving"
        onConfirm={() => blocker.proceed?.()}
      >
        <p>Your changes to this article are not saved. They will be lost.</p>
      </ConfirmDialog>
    </form>
  );
}
