import { type DragEvent, useId, useRef, useState } from 'react';
import { errorMessage } from '../../../lib/api-error';
import { uploadImage } from '../api/upload';
import { ImageFileButton } from './image-file-button';

/**
 * An image URL, filled by uploading a file straight to storage (drop it here or choose it), or typed.
 * `disabled` (an article the user may not change): its controls come disabled from the fieldset around them,
 * and a dropped file is not taken.
 */
export function ImageUploadField({
  label,
  value,
  onChange,
  error,
  disabled = false,
}: {
  label: string;
  value: string;
  onChange(url: string): void;
  error?: string | undefined;
  disabled?: boolean;
}) {
  const id = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);

  async function upload(file: File | undefined) {
    if (!file) return;
    setUploadError(null);
    setProgress(0);
    try {
      onChange(await uploadImage(file, setProgress));
    } catch (failure) {
      setUploadError(errorMessage(failure));
    } finally {
      setProgress(null);
      if (fileInput.current) fileInput.current.value = '';
    }
  }

  function onDrop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    if (!disabled) void upload(event.dataTransfer.files[0]);
  }

  const problem = uploadError ?? error;
  return (
    <div className="field image-field">
      <label htmlFor={`${id}-url`}>{label}</label>
      <section
        className={dragging ? 'dropzone dropzone-active' : 'dropzone'}
        aria-label={`${label}: drop an image here`}
        onDragOver={(event) => {
          // Without preventDefault the browser refuses the drop (and shows so while dragging).
          if (disabled) return;
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        {value ? (
          <img className="image-field-preview" src={value} alt={`${label} preview`} />
        ) : (
          <span className="muted">{disabled ? 'No image' : 'Drop an image here, or'}</span>
        )}
        {!disabled && (
          <ImageFileButton
            label={value ? `Replace ${label.toLowerCase()}` : `Choose ${label.toLowerCase()} file`}
            progress={progress}
            progressLabel={`Uploading ${label.toLowerCase()}`}
            onFile={(file) => void upload(file)}
            inputRef={fileInput}
          />
        )}
      </section>
      <div className="row" style={{ flexWrap: 'nowrap' }}>
        <input
          id={`${id}-url`}
          type="url"
          value={value}
          placeholder="https://"
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-error` : undefined}
          onChange={(event) => onChange(event.target.value)}
        />
        {value && (
          <button type="button" className="btn btn-small" onClick={() => onChange('')}>
            Remove {label.toLowerCase()}
          </button>
        )}
      </div>
      {problem && (
        <span id={`${id}-error`} className="field-error" role="alert">
          {problem}
        </span>
      )}
    </div>
  );
}
