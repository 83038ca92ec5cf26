import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { slugAvailabilityQuery } from '../../../api/articles';
import { Button } from '../../../components/button';
import { TextField } from '../../../components/text-field';
import { ApiError } from '../../../lib/api-error';
import { isValidSlug, slugFromTitle } from './article-draft';

/** Waits this long after the last keystroke before asking the server. */
const checkDelayMs = 300;

function useDebounced<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}

/** The article's address; checked with the server (valid, free) while typing. */
export function SlugField({
  articleId,
  slug,
  savedSlug,
  title,
  onChange,
  error,
}: {
  articleId: string;
  slug: string;
  savedSlug: string;
  title: string;
  onChange(slug: string): void;
  error?: string | undefined;
}) {
  const settled = useDebounced(slug, checkDelayMs);
  const needsCheck = settled !== savedSlug && isValidSlug(settled);
  const check = useQuery({ ...slugAvailabilityQuery(settled, articleId), enabled: needsCheck });

  let status: string | undefined;
  let problem: string | undefined = error;
  if (slug !== savedSlug) {
    if (!slug) problem ??= 'Required';
    else if (!isValidSlug(slug))
      problem ??= 'Use lower-case letters, digits and single dashes (e.g. harbour-news).';
    else if (slug !== settled || check.isFetching) status = 'Checking…';
    else if (check.data?.available === false) problem ??= 'Another article already has this address.';
    else if (check.data?.available) status = 'Available';
    // A server without the check (404) still refuses a taken slug on save (409 SLUG_TAKEN).
    else if (check.error instanceof ApiError && check.error.status !== 404) status = 'Could not check now.';
  }

  return (
    <TextField
      label="Slug"
      name="slug"
      value={slug}
      autoComplete="off"
      spellCheck={false}
      onChange={(event) => onChange(event.target.value)}
      error={problem}
      hint={
        <span aria-live="polite">
          {status ?? 'The article’s address on the child sites: /article/<slug>.'}
        </span>
      }
      addon={
        <Button size="small" onClick={() => onChange(slugFromTitle(title))} disabled={!slugFromTitle(title)}>
          From title
        </Button>
      }
    />
  );
}
