import type { ButtonHTMLAttributes, MouseEvent } from 'react';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'default' | 'primary' | 'danger' | 'link';
  size?: 'normal' | 'small';
  /** Shows the label as busy and ignores presses until the work is done; the button keeps the focus. */
  busy?: boolean;
}

export function Button({
  variant = 'default',
  size = 'normal',
  busy = false,
  className,
  disabled,
  type = 'button',
  onClick,
  children,
  ...rest
}: ButtonProps) {
  const classes = [
    'btn',
    variant !== 'default' && `btn-${variant}`,
    size === 'small' && 'btn-small',
    className,
  ]
    .filter(Boolean)
    .join(' ');
  // Busy is aria-disabled, not disabled: a focused button that becomes disabled drops the keyboard
  // focus to <body>. Presses are refused here instead (preventDefault also stops a submit button's
  // form submission, Enter in a field included).
  const refuse = (event: MouseEvent<HTMLButtonElement>) => {
    if (busy) event.preventDefault();
    else onClick?.(event);
  };
  return (
    <button
      type={type}
      className={classes}
      disabled={disabled}
      aria-disabled={busy || undefined}
      aria-busy={busy || undefined}
      onClick={refuse}
      {...rest}
    >
      {children}
    </button>
  );
}
