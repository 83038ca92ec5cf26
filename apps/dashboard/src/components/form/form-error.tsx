import type { ReactNode } from 'react';
import { Button, type ButtonProps } from '../button';

/** The form's own message: a refusal that no field shows (use-api-form.ts `formError`). */
export function FormError({ message, children }: { message: string | null; children?: ReactNode }) {
  if (message === null) return null;
  return (
    <div className="alert alert-error" role="alert">
      {message}
      {children}
    </div>
  );
}

/** The submit button, busy while the form's request is under way (it keeps the focus), and what goes beside it. */
export function SubmitRow({
  label,
  busy,
  variant = 'primary',
  disabled,
  children,
}: {
  label: ReactNode;
  busy: boolean;
  variant?: ButtonProps['variant'];
  disabled?: boolean;
  children?: ReactNode;
}) {
  return (
    <div className="row">
      <Button type="submit" variant={variant} busy={busy} disabled={disabled}>
        {label}
      </Button>
      {children}
    </div>
  );
}
