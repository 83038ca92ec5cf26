import { type InputHTMLAttributes, type ReactNode, type Ref, useId } from 'react';
import { describedBy, FieldNotes } from './field-notes';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  /** Rendered after the input (e.g. a "Generate" button). */
  addon?: ReactNode;
  /** The input itself (a form layer focuses the first refused field). */
  ref?: Ref<HTMLInputElement> | undefined;
}

/** A labelled input with its hint and its error, tied together for screen readers. */
export function TextField({ label, error, hint, addon, ...input }: TextFieldProps) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="row" style={{ flexWrap: 'nowrap' }}>
        <input
          id={id}
          type="text"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, hint, error)}
          {...input}
        />
        {addon}
      </div>
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}
