import type { Ref } from 'react';
import { uploadableTypes } from '../../../api/uploads';

/**
 * A button that chooses an image file to upload (the file input hidden in its label, unusable while an upload
 * runs), and the upload's progress beside it while `progress` is not null.
 */
export function ImageFileButton({
  label,
  progress,
  progressLabel,
  onFile,
  inputRef,
}: {
  label: string;
  progress: number | null;
  /** The progress bar's accessible name ("Uploading thumbnail"). */
  progressLabel: string;
  onFile(file: File | undefined): void;
  inputRef?: Ref<HTMLInputElement> | undefined;
}) {
  return (
    <>
      <label className="btn btn-small">
        {label}
        <input
          ref={inputRef}
          className="visually-hidden"
          type="file"
          accept={uploadableTypes.join(',')}
          disabled={progress !== null}
          onChange={(event) => onFile(event.target.files?.[0])}
        />
      </label>
      {progress !== null && (
        <progress aria-label={progressLabel} max={1} value={progress}>
          {Math.round(progress * 100)}%
        </progress>
      )}
    </>
  );
}
