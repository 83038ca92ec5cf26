import type { ReactNode } from 'react';
import { type Control, type FieldPathByValue, type FieldValues, useController } from 'react-hook-form';
import { PasswordField } from '../password-field';
import { TagsInput } from '../tags-input';
import { TextField, type TextFieldProps } from '../text-field';

// The shared fields bound to a form of the layer (use-api-form.ts): the value, its change and the placed
// message come from the form; the focus goes to the field when its message is the first.

interface Bound<V extends FieldValues, T> {
  control: Control<V>;
  name: FieldPathByValue<V, T>;
  /** Called after the form took a new value (e.g. a slug suggested from the name). */
  onValueChange?(value: T): void;
}

/** A labelled text input with its hint and the form's message for it. */
export function FormTextField<V extends FieldValues>({
  control,
  name,
  onValueChange,
  inputName,
  ...props
}: Bound<V, string> &
  Omit<TextFieldProps, 'name' | 'value' | 'onChange' | 'onBlur' | 'error'> & {
    /** The input's own name when it is not the field's (a password manager's `current-password`). */
    inputName?: string;
  }) {
  const { field, fieldState } = useController({ control, name });
  return (
    <TextField
      {...props}
      name={inputName ?? name}
      ref={field.ref}
      value={field.value}
      onBlur={field.onBlur}
      onChange={(event) => {
        field.onChange(event.target.value);
        onValueChange?.(event.target.value);
      }}
      error={fieldState.error?.message}
    />
  );
}

/** A new password, typed or generated (components/password-field.tsx). */
export function FormPasswordField<V extends FieldValues>({
  control,
  name,
  label,
  inputName,
}: Bound<V, string> & { label: string; inputName?: string }) {
  const { field, fieldState } = useController({ control, name });
  return (
    <PasswordField
      label={label}
      name={inputName ?? name}
      inputRef={field.ref}
      value={field.value}
      onChange={field.onChange}
      error={fieldState.error?.message}
    />
  );
}

/** Tags as a comma-separated text (the body splits it: components/tags-input.tsx). */
export function FormTagsField<V extends FieldValues>({
  control,
  name,
  label,
  hint,
}: Bound<V, string> & { label: string; hint?: string }) {
  const { field, fieldState } = useController({ control, name });
  return (
    <TagsInput
      label={label}
      inputRef={field.ref}
      value={field.value}
      onChange={field.onChange}
      error={fieldState.error?.message}
      {...(hint !== undefined && { hint })}
    />
  );
}

/** A checkbox with its label after it (auto-approve, enabled). */
export function FormCheckbox<V extends FieldValues>({
  control,
  name,
  children,
}: Bound<V, boolean> & { children: ReactNode }) {
  const { field } = useController({ control, name });
  return (
    <label className="checkbox-field">
      <input
        type="checkbox"
        ref={field.ref}
        checked={field.value}
        onBlur={field.onBlur}
        onChange={(event) => field.onChange(event.target.checked)}
      />
      {children}
    </label>
  );
}
