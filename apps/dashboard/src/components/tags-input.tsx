import type { Ref } from 'react';
import { TextField } from './text-field';

/** Tags typed as a comma-separated list (the API trims and de-duplicates them). */
export function TagsInput({
  label,
  value,
  onChange,
  error,
  hint = 'Separate tags with commas.',
  inputRef,
}: {
  label: string;
  value: string;
  onChange(value: string): void;
  error?: string | undefined;
  hint?: string;
  inputRef?: Ref<HTMLInputElement>;
}) {
  return (
    <TextField
      label={label}
      name="tags"
      ref={inputRef}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={error}
      hint={hint}
    />
  );
}

export const tagsToText = (tags: readonly string[]): string => tags.join(', ');
export const textToTags = (text: string): string[] =>
  text
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);
