import type { Article } from '../../../api/articles';
import { TextField } from '../../../components/text-field';
import type { ArticleDraft } from './article-draft';
import { NewsroomFields } from './newsroom-fields';
import { RichTextEditor } from './rich-text-editor';
import { SlugField } from './slug-field';
import { moveToBodyOnEnter } from './title-keys';

/**
 * The article's own text: title, slug, body and the newsroom fields. `readOnly` (the user may read the article
 * but not change it): the note says so, every field is disabled and the body is not editable.
 */
export function ArticleTextFields({
  article,
  draft,
  savedSlug,
  bodyVersion,
  errors,
  readOnly,
  set,
}: {
  article: Article | null;
  draft: ArticleDraft;
  /** The slug as saved (the slug field checks a changed one). */
  savedSlug: string;
  /** A new value remounts the body editor with the draft's body (after Reload or Restore). */
  bodyVersion: number;
  errors: Partial<Record<keyof ArticleDraft, string>>;
  readOnly: boolean;
  set<K extends keyof ArticleDraft>(key: K, value: ArticleDraft[K]): void;
}) {
  return (
    <>
      {readOnly && (
        <p className="alert alert-warning" role="note">
          You can read this article but not change it: your role on its sites does not allow it.
        </p>
      )}
      <fieldset className="plain stack" disabled={readOnly}>
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
            savedSlug={savedSlug}
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
          readOnly={readOnly}
        />
        {errors.body && <span className="field-error">{errors.body}</span>}
        <NewsroomFields draft={draft} set={set} published={article?.status === 'published'} errors={errors} />
      </fieldset>
    </>
  );
}
