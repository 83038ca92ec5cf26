import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, useRef, useState } from 'react';
import type { Article } from '../../../api/articles';
import { fetchArticle, useCreateArticle, useSaveArticle, type VersionedArticle } from '../../../api/articles';
import { useCanEach } from '../../../api/permissions';
import { sessionQuery } from '../../../api/session';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useToast } from '../../../components/toaster';
import { ApiError, errorMessage } from '../../../lib/api-error';
import { fieldErrors } from '../../../lib/field-errors';
import {
  type ArticleDraft,
  changedFields,
  createBody,
  draftAfterSave,
  draftOf,
  emptyDraft,
  hostSitesChanged,
  isDirty,
  isValidSlug,
} from './article-draft';
import { ArticlePreview } from './article-preview';
import { ArticleSidebar } from './article-sidebar';
import { ArticleTextFields } from './article-text-fields';
import { ConflictDialog } from './conflict-dialog';
import { HistoryPanel } from './history-panel';
import { localCopyKey } from './local-copy';
import { PreviewLinks } from './preview-links';
import { RestoreOffer } from './restore-offer';
import { type AutosaveState, saveStatusText, useAutosave } from './use-autosave';
import { useLocalCopy } from './use-local-copy';
import { useUnsavedChanges } from './use-unsaved-changes';
import './articles.css';

/** The editor's fields, where the API's refusals are placed: the draft's own. */
const fields = Object.keys(emptyDraft) as (keyof ArticleDraft)[];

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
  // Autosave's own mutation: its errors go to the status line, never next to the fields or into a toast.
  const autosaveMutation = useSaveArticle();
  const [session, setSession] = useState<Session>(() => ({
    article: loaded?.article ?? null,
    etag: loaded?.etag ?? null,
    base: loaded ? draftOf(loaded.article) : emptyDraft,
  }));
  const [draft, setDraft] = useState<ArticleDraft>(session.base);
  // A new key remounts the rich-text editor with another body (after Reload or Restore).
  const [bodyVersion, setBodyVersion] = useState(0);
  const [conflict, setConflict] = useState(false);
  const [resolving, setResolving] = useState(false);
  const [autosave, setAutosave] = useState<AutosaveState>({ kind: 'idle' });
  const [lastSavedAt, setLastSavedAt] = useState<Date | null>(null);
  const dirty = isDirty(session.base, draft);
  const blocker = useUnsavedChanges(dirty);
  const { article } = session;
  const userId = useQuery(sessionQuery).data?.user.id;
  // An article the policy lets this user read but not change (any article for a reviewer, another's pending or
  // published one for a contributor) is shown read-only: no field takes typing that could never be saved.
  const can = useCanEach();
  const itself = article ? ({ kind: 'article', article } as const) : undefined;
  const readOnly = itself !== undefined && can !== undefined && !can('updateArticle', itself);
  const copy = useLocalCopy(
    userId ? localCopyKey(userId, article?.id ?? null) : null,
    session.base,
    draft,
    dirty,
  );

  // Saves run one after another and each reads the latest version and draft when it starts (not when it
  // was asked for): a Save during an autosave is sent with the version the autosave produced, so a
  // person's own saves never meet each other as a 412.
  const latestRef = useRef({ session, draft });
  latestRef.current = { session, draft };
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  function enqueue<T>(task: () => Promise<T>): Promise<T> {
    const next = queue.current.then(task, task);
    queue.current = next.catch(() => {});
    return next;
  }

  const set = <K extends keyof ArticleDraft>(key: K, value: ArticleDraft[K]) =>
    setDraft((current) => ({ ...current, [key]: value }));
  const errors = fieldErrors(article ? save.error : create.error, fields, {
    SLUG_TAKEN: 'slug',
    UNKNOWN_SITE: 'hostSites',
    IMAGE_ALT_REQUIRED: 'imageMeta',
  });

  /** The saved version becomes the base; `textSaved` is false after a publish/unpublish (no text was saved). */
  function settle(saved: VersionedArticle, sent: ArticleDraft, textSaved = true) {
    // What was sent is the body now: the server may serialise the same markup differently.
    const next = { ...draftOf(saved.article), body: sent.body };
    const nextSession = { article: saved.article, etag: saved.etag, base: next };
    latestRef.current = { ...latestRef.current, session: nextSession };
    setSession(nextSession);
    setDraft((current) => draftAfterSave(current, sent, next));
    if (textSaved) setLastSavedAt(new Date());
  }

  /** One save of the draft's changes as they are when it runs; `ifMatch` undefined: the latest version. */
  function persist(mutation: typeof save, ifMatch?: string | null): Promise<VersionedArticle> {
    return enqueue(async () => {
      const { session: current, draft: sent } = latestRef.current;
      if (!current.article) throw new Error('the article is not created yet');
      const saved = await mutation.mutateAsync({
        id: current.article.id,
        changes: changedFields(current.base, sent),
        hostSites: hostSitesChanged(current.base, sent) ? sent.hostSites : undefined,
        ifMatch: ifMatch === undefined ? current.etag : ifMatch,
        autosave: mutation === autosaveMutation,
      });
      settle(saved, sent);
      return saved;
    });
  }

  /** Saves the draft's changes; answers the saved version, or null when it did not save (conflict, errors). */
  async function saveDraft(ifMatch?: string | null): Promise<VersionedArticle | null> {
    if (!article) return null;
    try {
      const saved = await persist(save, ifMatch);
      setAutosave({ kind: 'idle' });
      return saved;
    } catch (error) {
      if (error instanceof ApiError && error.status === 412) setConflict(true);
      else if (!shownByFields(error)) toast({ kind: 'error', title: errorMessage(error) });
      return null;
    }
  }

  useAutosave({
    // Never a published article (a save goes live at once), nor after someone else saved (Save decides),
    // nor a draft the API would refuse as it stands (no title, a malformed slug).
    enabled:
      article !== null &&
      !readOnly &&
      article.status !== 'published' &&
      autosave.kind !== 'conflict' &&
      draft.title.trim() !== '' &&
      isValidSlug(draft.slug),
    dirty,
    draft,
    save: async () => {
      setAutosave({ kind: 'saving' });
      try {
        await persist(autosaveMutation);
        setAutosave({ kind: 'idle' });
      } catch (error) {
        if (error instanceof ApiError && error.status === 412) setAutosave({ kind: 'conflict' });
        else setAutosave({ kind: 'failed', message: errorMessage(error) });
      }
    },
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!article) {
      create.mutate(createBody(draft), {
        onError: (error) => {
          if (!shownByFields(error)) toast({ kind: 'error', title: errorMessage(error) });
        },
        onSuccess: (created) => {
          // The server has the text: the browser's copy of the new draft is done with.
          copy.forget();
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
      setAutosave({ kind: 'idle' });
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

  /** The 412 prompt's merge: their version becomes the base, the merged fields the draft, saved over it. */
  async function merge(merged: ArticleDraft, theirs: VersionedArticle) {
    const nextSession = { article: theirs.article, etag: theirs.etag, base: draftOf(theirs.article) };
    latestRef.current = { session: nextSession, draft: merged };
    setSession(nextSession);
    setDraft(merged);
    setBodyVersion((v) => v + 1);
    setResolving(true);
    try {
      if (await saveDraft(theirs.etag)) {
        setConflict(false);
        setAutosave({ kind: 'idle' });
        toast({ kind: 'success', title: 'Saved the merged version' });
      }
    } finally {
      setResolving(false);
    }
  }

  return (
    <form className="article-editor" onSubmit={submit} aria-label="Article" noValidate>
      <div className="article-editor-main stack">
        {copy.offer && (
          <RestoreOffer
            copy={copy.offer}
            isNew={!article}
            onRestore={() => {
              setDraft(copy.restore());
              setBodyVersion((v) => v + 1);
            }}
            onDiscard={copy.discard}
          />
        )}
        <ArticleTextFields
          article={article}
          draft={draft}
          savedSlug={session.base.slug}
          bodyVersion={bodyVersion}
          errors={errors}
          readOnly={readOnly}
          set={set}
        />
        <details className="card article-preview-box">
          <summary>Preview as a child site</summary>
          <ArticlePreview
            draft={draft}
            source={article?.source ?? null}
            publishedAt={article?.publishedAt ?? null}
          />
        </details>
        {/* Preview links are an editor's tool (policy: list, create and revoke alike). */}
        {article && can?.('listArticlePreviewLinks', itself) && (
          <PreviewLinks articleId={article.id} dirty={dirty} />
        )}
        {article && (
          <HistoryPanel articleId={article.id} version={session.etag} dirty={dirty} onRestored={reload} />
        )}
      </div>
      <ArticleSidebar
        article={article}
        draft={draft}
        dirty={dirty}
        readOnly={readOnly}
        status={saveStatusText({ isNew: !article, dirty, autosave, lastSavedAt })}
        errors={errors}
        saving={save.isPending || create.isPending}
        onChange={set}
        saveFirst={saveDraft}
        onDeleted={() => {
          copy.forget();
          void navigate({ to: '/articles', ignoreBlocker: true });
        }}
        onTransitioned={(saved) => settle(saved, draft, false)}
      />
      <ConflictDialog
        open={conflict}
        busy={resolving}
        articleId={article?.id ?? null}
        base={session.base}
        mine={draft}
        onReload={reload}
        onOverwrite={overwrite}
        onMerge={merge}
        onCancel={() => setConflict(false)}
      />
      <ConfirmDialog
        open={blocker.status === 'blocked'}
        onOpenChange={(open) => !open && blocker.reset?.()}
        title="Leave without saving?"
        confirmLabel="Leave without saving"
        onConfirm={() => {
          // Leaving without saving is a decision: the browser's copy goes too.
          copy.forget();
          blocker.proceed?.();
        }}
      >
        <p>Your changes to this article are not saved. They will be lost.</p>
      </ConfirmDialog>
    </form>
  );
}
