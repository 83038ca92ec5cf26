/**
 * Tags as stored: trimmed, inner whitespace collapsed, empty ones dropped, duplicates removed
 * regardless of case (the first spelling wins, so "COVID-19" stays as written).
 */
export function normaliseTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  const result: string[] = [];
  for (const raw of tags) {
    const tag = raw.trim().replace(/\s+/g, ' ');
    const key = tag.toLowerCase();
    if (tag.length === 0 || seen.has(key)) continue;
    seen.add(key);
    result.push(tag);
  }
  return result;
}
