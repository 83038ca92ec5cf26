/**
 * The navigation link that a path belongs to: the longest link path that is the path itself or one of
 * its folders. `/articles?status=draft` and `/articles/<id>` belong to `/articles`; `/publishers/<id>` to
 * `/publishers`, while `/publishers/create` has a link of its own.
 */
export function sectionOf(pathname: string, linkPaths: readonly string[]): string | undefined {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  let best: string | undefined;
  for (const link of linkPaths) {
    const owns = path === link || path.startsWith(link.endsWith('/') ? link : `${link}/`);
    if (owns && (!best || link.length > best.length)) best = link;
  }
  return best;
}
