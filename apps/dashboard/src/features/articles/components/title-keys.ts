import type { KeyboardEvent } from 'react';

/**
 * Enter in the title goes on to the body, as in a word processor, instead of submitting the form (which,
 * for a new article, created the draft at once with an empty body).
 */
export function moveToBodyOnEnter(event: KeyboardEvent<HTMLInputElement>) {
  if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
  event.preventDefault();
  event.currentTarget.form?.querySelector<HTMLElement>('.rte-content')?.focus();
}
