import type { ArticleDraft } from './article-draft';

// The 412 prompt's three-way merge: the version the editor started from (base), the person's draft
// (mine) and the version saved meanwhile (theirs), field by field.

export type MergeChoice = 'mine' | 'theirs';

export interface MergeRow {
  field: keyof ArticleDraft;
  /** The values as text, for the prompt. */
  theirs: string;
  mine: string;
  /** Mine where I changed the field, theirs otherwise. */
  suggested: MergeChoice;
}

const same = (a: ArticleDraft[keyof ArticleDraft], b: ArticleDraft[keyof ArticleDraft]) =>
  JSON.stringify(a) === JSON.stringify(b);

const asText = (value: ArticleDraft[keyof ArticleDraft]): string => {
  if (Array.isArray(value)) {
    // Tags and host sites are strings; bylines (issue 32) are shown by name.
    return value.map((item) => (typeof item === 'string' ? item : item.name)).join(', ') || '—';
  }
  if (typeof value !== 'string') {
    // A picture's metadata (issue 32): its text fields.
    return [value.alt, value.caption, value.credit].filter(Boolean).join(' · ') || '—';
  }
  return (
    value
      .replace(/<\/(p|h[1-6]|li|blockquote)>/gi, '\n')
      .replace(/<[^>]*>/g, '')
      .trim() || '—'
  );
};

/** The fields where mine and theirs differ and at least one of us changed it since the base. */
export function mergeRows(base: ArticleDraft, mine: ArticleDraft, theirs: ArticleDraft): MergeRow[] {
  return (Object.keys(base) as (keyof ArticleDraft)[])
    .filter((field) => !same(mine[field], theirs[field]))
    .filter((field) => !same(mine[field], base[field]) || !same(theirs[field], base[field]))
    .map((field) => ({
      field,
      theirs: asText(theirs[field]),
      mine: asText(mine[field]),
      suggested: same(mine[field], base[field]) ? 'theirs' : 'mine',
    }));
}

/** The merged draft: each field as chosen (or suggested); fields only one of us changed keep that change. */
export function mergeDrafts(
  base: ArticleDraft,
  mine: ArticleDraft,
  theirs: ArticleDraft,
  choices: Partial<Record<keyof ArticleDraft, MergeChoice>>,
): ArticleDraft {
  const merged = { ...theirs };
  for (const row of mergeRows(base, mine, theirs)) {
    const choice = choices[row.field] ?? row.suggested;
    if (choice === 'mine') (merged as Record<string, unknown>)[row.field] = mine[row.field];
  }
  return merged;
}
