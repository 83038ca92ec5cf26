import { type KeyboardEvent, useId, useState } from 'react';
import { describedBy, FieldNotes } from '../../../components/field-notes';

const hint = 'Press Enter or type a comma to add a tag.';

/** Tags as removable chips; Enter or a comma adds the typed tag, Backspace in an empty box removes the last. */
export function TagChips({
  label,
  tags,
  onChange,
  error,
  max = 30,
}: {
  label: string;
  tags: string[];
  onChange(tags: string[]): void;
  error?: string | undefined;
  max?: number;
}) {
  const id = useId();
  const [text, setText] = useState('');

  function add(raw: string) {
    const tag = raw.trim().replace(/\s+/g, ' ').slice(0, 60);
    setText('');
    if (!tag || tags.length >= max) return;
    // The API keeps one spelling per tag, case-insensitively: so does the editor.
    if (tags.some((existing) => existing.toLowerCase() === tag.toLowerCase())) return;
    onChange([...tags, tag]);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Enter' || event.key === ',') {
      event.preventDefault();
      add(text);
    } else if (event.key === 'Backspace' && text === '' && tags.length > 0) {
      onChange(tags.slice(0, -1));
    }
  }

  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="chips">
        <ul className="chips-list" aria-label={`${label}: ${tags.length}`}>
          {tags.map((tag) => (
            <li key={tag} className="chip">
              <span>{tag}</span>
              <button
                type="button"
                className="chip-remove"
                aria-label={`Remove tag ${tag}`}
                onClick={() => onChange(tags.filter((t) => t !== tag))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
        <input
          id={id}
          className="chips-input"
          value={text}
          aria-describedby={describedBy(id, hint, error)}
          aria-invalid={error ? true : undefined}
          onChange={(event) => {
            const value = event.target.value;
            if (value.includes(',')) add(value.replace(',', ''));
            else setText(value);
          }}
          onKeyDown={onKeyDown}
          onBlur={() => text && add(text)}
        />
      </div>
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}
