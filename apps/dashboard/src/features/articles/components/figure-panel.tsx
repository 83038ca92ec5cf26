import { type KeyboardEvent, type SyntheticEvent, useEffect, useRef, useState } from 'react';
import { Button } from '../../../components/button';
import { TextField } from '../../../components/text-field';
import { errorMessage } from '../../../lib/api-error';
import { uploadImage } from '../api/upload';
import type { FigureAttributes } from './figure-node';
import { ImageFileButton } from './image-file-button';

/** How long the panel waits for a picture to load to read its size (the figure goes in without one after). */
const measureTimeoutMs = 10_000;

/** The natural size of the picture at `src`, or null when it does not load in time. */
function measure(src: string): Promise<{ width: string; height: string } | null> {
  return new Promise((resolve) => {
    const img = new Image();
    const timer = window.setTimeout(() => resolve(null), measureTimeoutMs);
    img.onload = () => {
      window.clearTimeout(timer);
      resolve(
        img.naturalWidth > 0 ? { width: String(img.naturalWidth), height: String(img.naturalHeight) } : null,
      );
    };
    img.onerror = () => {
      window.clearTimeout(timer);
      resolve(null);
    };
    img.src = src;
  });
}

const isWebAddress = (url: string) => /^https?:\/\/\S+$/i.test(url);

/**
 * Inserts a picture into the body, or edits the selected one: upload a file (straight to storage, with
 * progress) or give its address, then its alt text (required) and caption. Not a nested <form>: the editor
 * sits inside the article form, so Enter applies and Escape cancels here.
 */
export function FigurePanel({
  initial,
  onApply,
  onCancel,
}: {
  /** The selected figure's attributes (editing), or null (inserting). */
  initial: FigureAttributes | null;
  onApply(attributes: FigureAttributes): void;
  onCancel(): void;
}) {
  const [src, setSrc] = useState(initial?.src ?? '');
  const [alt, setAlt] = useState(initial?.alt ?? '');
  const [caption, setCaption] = useState(initial?.caption ?? '');
  const [size, setSize] = useState(
    initial?.width ? { width: initial.width, height: initial.height ?? '' } : null,
  );
  const [progress, setProgress] = useState<number | null>(null);
  const [problem, setProblem] = useState<{ field: 'src' | 'alt'; message: string } | null>(null);
  const first = useRef<HTMLInputElement>(null);
  const measured = useRef(initial?.src ?? '');

  useEffect(() => first.current?.focus(), []);

  async function sizeOf(url: string) {
    measured.current = url;
    setSize(null);
    const found = await measure(url);
    if (measured.current === url) setSize(found);
  }

  async function upload(file: File | undefined) {
    if (!file) return;
    setProblem(null);
    setProgress(0);
    try {
      const url = await uploadImage(file, setProgress);
      setSrc(url);
      void sizeOf(url);
    } catch (failure) {
      setProblem({ field: 'src', message: errorMessage(failure) });
    } finally {
      setProgress(null);
    }
  }

  function apply(event: SyntheticEvent) {
    event.preventDefault();
    const url = src.trim();
    if (!isWebAddress(url)) {
      setProblem({
        field: 'src',
        message: 'Upload a picture, or give its address (starting with https://).',
      });
      return;
    }
    if (alt.trim() === '') {
      setProblem({
        field: 'alt',
        message: 'Alt text is required: describe the picture for readers who cannot see it.',
      });
      return;
    }
    const keepSize = size && (measured.current === url || initial?.src === url);
    onApply({
      src: url,
      alt: alt.trim(),
      caption: caption.trim(),
      width: keepSize ? size.width : null,
      height: keepSize ? size.height || null : null,
      title: initial?.title ?? null,
    });
  }

  const keys = (event: KeyboardEvent) => {
    if (event.key === 'Enter') apply(event);
    if (event.key === 'Escape') {
      event.preventDefault();
      onCancel();
    }
  };
  const verb = initial ? 'Apply' : 'Insert image';
  return (
    <fieldset className="stack rte-figure-panel" aria-label={initial ? 'Edit image' : 'Insert image'}>
      <div className="row rte-figure-source">
        <ImageFileButton
          label="Upload image file"
          progress={progress}
          progressLabel="Uploading image"
          onFile={(file) => void upload(file)}
          inputRef={initial ? undefined : first}
        />
        {src && isWebAddress(src) && <img className="rte-figure-thumb" src={src} alt="" />}
      </div>
      <TextField
        label="Image address"
        type="url"
        placeholder="https://"
        value={src}
        error={problem?.field === 'src' ? problem.message : undefined}
        onChange={(event) => {
          setSrc(event.target.value);
          if (problem?.field === 'src') setProblem(null);
        }}
        onBlur={() => {
          const url = src.trim();
          if (isWebAddress(url) && url !== measured.current) void sizeOf(url);
        }}
        onKeyDown={keys}
      />
      <TextField
        ref={initial ? first : undefined}
        label="Image alt text"
        value={alt}
        maxLength={1000}
        hint="Describe the picture for readers who cannot see it (required)."
        error={problem?.field === 'alt' ? problem.message : undefined}
        onChange={(event) => {
          setAlt(event.target.value);
          if (problem?.field === 'alt') setProblem(null);
        }}
        onKeyDown={keys}
      />
      <TextField
        label="Image caption"
        value={caption}
        maxLength={1000}
        hint="Shown under the picture (optional)."
        onChange={(event) => setCaption(event.target.value)}
        onKeyDown={keys}
      />
      <div className="row">
        <Button size="small" variant="primary" disabled={progress !== null} onClick={apply}>
          {verb}
        </Button>
        <Button size="small" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </fieldset>
  );
}
