import { type DragEvent, useId, useRef, useState } from 'react';
import { uploadableTypes } from '../../../api/uploads';
import { errorMessage } from '../../../lib/api-error';
import { uploadImage } from '../api/upload';

/** An image URL, filled by uploading a file straight to storage (drop it here or choose it), or typed. */
export function ImageUploadField({
  label,
  value,
  onChange,
  error,
}: {
  label: string;
  value: string;
  onChange(url: string): void;
  error?: string | undefined;
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
    void upload(event.dataTransfer.files[0]);
  }

  const problem = uploadError ?? error;
  return (
    <div className="field image-field">
      <label htmlFor={`${id}-url`}>{label}</label>
      <section
        className={dragging ? 'dropzone dropzone-active' : 'dropzone'}
        aria-label={`${label}: drop an image here`}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        {value ? (
          <img className="image-field-preview" src={value} alt={`${label} preview`} />
        ) : (
          <span className="muted">Drop an image here, or</span>
        )}
        <label className="btn btn-small">
          {value ? `Replace ${label.toLowerCase()}` : `Choose ${label.toLowerCase()} file`}
          <input
            ref={fileInput}
            className="visually-hidden"
            type="file"
            accept={uploadableTypes.join(',')}
            disabled={progress !== null}
            onChange={(event) => void upload(event.target.files?.[0])}
          />
        </label>
        {progress !== null && (
          <progress aria-label={`Uploading ${label.toLowerCase()}`} max={1} value={progress}>
            {Math.round(progress * 100)}%
          </progress>
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
