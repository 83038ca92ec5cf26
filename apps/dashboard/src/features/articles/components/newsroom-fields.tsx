import { type KeyboardEvent, type MouseEvent, useId } from 'react';
import { Button } from '../../../components/button';
import { TextField } from '../../../components/text-field';
import type { ArticleDraft, DraftImageMeta } from './article-draft';
import { BylinePicker } from './byline-picker';

// Issue 32's fields in the editor: the standfirst under the title, the bylines (byline-picker.tsx: team
// members and free names), each picture's alt text, caption, credit and focal point, a correction note when a
// published article is saved, and the body's word count and reading time.

type Set = <K extends keyof ArticleDraft>(key: K, value: ArticleDraft[K]) => void;

/** Words a reader reads in a minute (the usual figure for news copy). */
const wordsPerMinute = 230;

/** Words of the body's text, and the minutes it takes to read (at least 1 when there are words). */
export function readingStats(html: string): { words: number; minutes: number } {
  const text = html.replace(/<[^>]*>/g, ' ').replace(/&[a-z#0-9]+;/gi, ' ');
  const words = text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
  return { words, minutes: words === 0 ? 0 : Math.max(1, Math.round(words / wordsPerMinute)) };
}

export function StandfirstField({ draft, set }: { draft: ArticleDraft; set: Set }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>Standfirst</label>
      <textarea
        id={id}
        name="standfirst"
        rows={2}
        maxLength={500}
        value={draft.standfirst}
        aria-describedby={`${id}-hint`}
        onChange={(event) => set('standfirst', event.target.value)}
      />
      <span id={`${id}-hint`} className="muted">
        Shown under the headline; plain text, at most 500 characters.
      </span>
    </div>
  );
}

/** Alt text, caption, credit and focal point of one picture (shown once it has a URL). */
export function ImageDetailsFields({
  label,
  url,
  meta,
  onChange,
  error,
}: {
  label: string;
  url: string;
  meta: DraftImageMeta;
  onChange(meta: DraftImageMeta): void;
  error?: string | undefined;
}) {
  if (url.trim() === '') return null;
  const change = (patch: Partial<DraftImageMeta>) => onChange({ ...meta, ...patch });
  return (
    <fieldset className="field image-details">
      <legend>{label} details</legend>
      <TextField
        label={`${label} alt text`}
        required
        maxLength={1000}
        value={meta.alt}
        hint="Describe the picture for readers who cannot see it (required)."
        error={error ?? (meta.alt.trim() === '' ? 'Alt text is required for a picture' : undefined)}
        onChange={(event) => change({ alt: event.target.value })}
      />
      <TextField
        label={`${label} caption`}
        maxLength={1000}
        value={meta.caption}
        onChange={(event) => change({ caption: event.target.value })}
      />
      <TextField
        label={`${label} credit`}
        maxLength={300}
        value={meta.credit}
        onChange={(event) => change({ credit: event.target.value })}
      />
      <FocalPointPicker
        label={label}
        url={url}
        value={meta.focalPoint}
        onChange={(focalPoint) => change({ focalPoint })}
      />
    </fieldset>
  );
}

const round = (n: number) => Math.round(Math.min(1, Math.max(0, n)) * 100) / 100;

/** Click the picture where crops should centre; arrow keys move the point by 5%. */
export function FocalPointPicker({
  label,
  url,
  value,
  onChange,
}: {
  label: string;
  url: string;
  value: { x: number; y: number } | null;
  onChange(value: { x: number; y: number } | null): void;
}) {
  const point = value ?? { x: 0.5, y: 0.5 };
  function pick(event: MouseEvent<HTMLButtonElement>) {
    const box = event.currentTarget.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) return;
    onChange({
      x: round((event.clientX - box.left) / box.width),
      y: round((event.clientY - box.top) / box.height),
    });
  }
  function nudge(event: KeyboardEvent<HTMLButtonElement>) {
    const step = { ArrowLeft: [-0.05, 0], ArrowRight: [0.05, 0], ArrowUp: [0, -0.05], ArrowDown: [0, 0.05] }[
      event.key
    ];
    if (!step) return;
    event.preventDefault();
    onChange({ x: round(point.x + (step[0] ?? 0)), y: round(point.y + (step[1] ?? 0)) });
  }
  return (
    <div className="field focal-point">
      <span>Focal point</span>
      <button
        type="button"
        className="focal-point-picker"
        aria-label={`${label} focal point: ${Math.round(point.x * 100)}% across, ${Math.round(point.y * 100)}% down. Click the picture or use the arrow keys`}
        onClick={pick}
        onKeyDown={nudge}
      >
        <img src={url} alt="" />
        <span
          className="focal-point-marker"
          style={{ left: `${point.x * 100}%`, top: `${point.y * 100}%` }}
          aria-hidden="true"
        />
      </button>
      {value && (
        <Button size="small" onClick={() => onChange(null)}>
          Reset to centre
        </Button>
      )}
    </div>
  );
}

/** A correction note, offered when saving a published article: appended for readers with who and when. */
export function CorrectionField({ draft, set }: { draft: ArticleDraft; set: Set }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>Add correction</label>
      <textarea
        id={id}
        name="correction"
        rows={2}
        maxLength={2000}
        value={draft.correction}
        aria-describedby={`${id}-hint`}
        onChange={(event) => set('correction', event.target.value)}
      />
      <span id={`${id}-hint`} className="muted">
        Saved with your next save, shown to readers with the date; corrections cannot be edited later.
      </span>
    </div>
  );
}

/** The editor's fields of issue 32, placed under the title (standfirst, bylines) and under the body (the rest). */
export function NewsroomFields({
  draft,
  set,
  published,
  errors,
}: {
  draft: ArticleDraft;
  set: Set;
  published: boolean;
  errors: Partial<Record<keyof ArticleDraft, string>>;
}) {
  const { words, minutes } = readingStats(draft.body);
  return (
    <section className="stack newsroom-fields" aria-label="Newsroom fields">
      <p className="muted" aria-live="polite">
        {words} {words === 1 ? 'word' : 'words'} · {minutes} min read
      </p>
      <StandfirstField draft={draft} set={set} />
      <BylinePicker bylines={draft.bylines} onChange={(bylines) => set('bylines', bylines)} />
      <ImageDetailsFields
        label="Image"
        url={draft.image}
        meta={draft.imageMeta}
        onChange={(meta) => set('imageMeta', meta)}
        error={errors.imageMeta}
      />
      <ImageDetailsFields
        label="Thumbnail"
        url={draft.thumbnail}
        meta={draft.thumbnailMeta}
        onChange={(meta) => set('thumbnailMeta', meta)}
        error={errors.thumbnailMeta}
      />
      {published && <CorrectionField draft={draft} set={set} />}
    </section>
  );
}
