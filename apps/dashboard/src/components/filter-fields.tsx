import { type ReactNode, useEffect, useId, useState } from 'react';
import { Button } from './button';

/**
 * A filter's text as typed, sent on Search; it follows the URL's value when that changes (Back, a link),
 * so the box never shows a search that is not the list's.
 */
export function useFilterText(urlValue: string | undefined) {
  const [text, setText] = useState(urlValue ?? '');
  useEffect(() => setText(urlValue ?? ''), [urlValue]);
  return [text, setText] as const;
}

export interface Choice {
  value: string;
  label: string;
}

/** A list filter's select: "all" first (no value), then the choices; the pick goes to the URL or the query. */
export function ChoiceFilter({
  label,
  allLabel,
  choices,
  value,
  onChange,
}: {
  label: string;
  allLabel: string;
  choices: readonly Choice[];
  value: string | undefined;
  onChange(value: string | undefined): void;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value ?? ''} onChange={(event) => onChange(event.target.value || undefined)}>
        <option value="">{allLabel}</option>
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A list's filters in a search landmark; Search (or Enter in a text) hands over the typed text. */
export function FilterForm({
  label,
  onSearch,
  children,
}: {
  label: string;
  onSearch(): void;
  children: ReactNode;
}) {
  return (
    <search>
      <form
        className="row"
        aria-label={label}
        onSubmit={(event) => {
          event.preventDefault();
          onSearch();
        }}
      >
        {children}
        <SearchSubmit />
      </form>
    </search>
  );
}

/** A filter form's Search button, aligned with the fields' inputs (an empty label above it). */
function SearchSubmit() {
  return (
    <div className="field">
      <span className="field-label" aria-hidden="true">
        &nbsp;
      </span>
      <Button type="submit">Search</Button>
    </div>
  );
}
