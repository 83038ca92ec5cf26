import { screen } from '@testing-library/react';

/** The message shown for a field: the element its input names in aria-describedby with class field-error. */
export function errorOf(
  label: string,
  container: Pick<typeof screen, 'getByLabelText'> = screen,
): string | null {
  const input = container.getByLabelText(label);
  const ids = (input.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
  const error = ids
    .map((id) => document.getElementById(id))
    .find((el) => el?.classList.contains('field-error'));
  return error?.textContent ?? null;
}
