export const maxTags = 20;
export const maxTagLength = 50;

/**
 * Tags as stored: trimmed, empty ones dropped, duplicates removed case-insensitively (the first
 * spelling wins), order kept, at most `maxTags`.
 */
export function normaliseTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  const result: string[] = [];
  for (const raw of tags) {
    const tag = raw.trim().replace(/\s+/g, ' ');
    const key = tag.toLowerCase();
    if (tag === '' || seen.has(key)) continue;
    seen.add(key);
    result.push(tag);
  }
  return result.slice(0, maxTags);
}
