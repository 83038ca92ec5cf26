import { type Ref, useState } from 'react';
import { generatePassword } from '../lib/generate-password';
import { Button } from './button';
import { TextField } from './text-field';

/** A new password: typed, or generated (then shown, so it can be copied and handed over). */
export function PasswordField({
  label,
  value,
  onChange,
  error,
  name = 'password',
  inputRef,
}: {
  label: string;
  value: string;
  onChange(value: string): void;
  error?: string | undefined;
  name?: string;
  inputRef?: Ref<HTMLInputElement>;
}) {
  const [visible, setVisible] = useState(false);
  return (
    <TextField
      label={label}
      name={name}
      ref={inputRef}
      type={visible ? 'text' : 'password'}
      autoComplete="new-password"
      required
      minLength={12}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      error={error}
      hint="At least 12 characters."
      addon={
        <>
          <Button
            onClick={() => {
              onChange(generatePassword());
              setVisible(true);
            }}
          >
            Generate
          </Button>
          <Button onClick={() => setVisible((shown) => !shown)} aria-pressed={visible}>
            {visible ? 'Hide' : 'Show'}
          </Button>
        </>
      }
    />
  );
}
