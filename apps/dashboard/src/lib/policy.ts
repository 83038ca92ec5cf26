// The policy's answer in the browser, from the signed-in user's own rows of the policy table (GET
// /api/v1/auth/permissions): the same rows the API's guards read, so the dashboard shows a control exactly
// when the API would accept its request. The scopes mean what packages/domain/src/policy/policy.ts says;
// test/policy-evaluation.test.ts checks this reading against the domain's own on every role and target.
// Sites are named by slug here (an article carries its host sites' slugs; a grant carries its site's).

export interface PolicyRowOf {
  operationId: string;
  caller: string;
  scope: string;
}

/** The signed-in user as the policy sees it: the permissions answer and the user's id. */
export interface PolicyViewer {
  userId: string;
  role: string;
  /** true for administrators: every operation, every target. */
  everything: boolean;
  grants: readonly { siteSlug: string; role: string }[];
  rows: readonly PolicyRowOf[];
}

/** What an article scope needs of an article: its host sites (slugs), creator and status. */
export interface ArticleInScope {
  hostSites: readonly string[];
  createdBy?: string | null | undefined;
  status: string;
}

/** What a control acts on: nothing in particular, an article, a site, or articles named in the request. */
export type PolicySubject =
  | { kind: 'none' }
  | { kind: 'article'; article: ArticleInScope }
  | { kind: 'site'; siteSlug: string }
  | { kind: 'named-articles'; articles: readonly ArticleInScope[] };

const nothing: PolicySubject = { kind: 'none' };

const holdsOnSite = (viewer: PolicyViewer, role: string, slug: string) =>
  viewer.grants.some((grant) => grant.siteSlug === slug && grant.role === role);

function coversArticle(viewer: PolicyViewer, role: string, article: ArticleInScope): boolean {
  if (article.hostSites.some((slug) => holdsOnSite(viewer, role, slug))) return true;
  return article.hostSites.length === 0 && article.createdBy === viewer.userId && viewer.role === role;
}

function isVisible(viewer: PolicyViewer, article: ArticleInScope): boolean {
  if (article.createdBy === viewer.userId) return true;
  if (article.hostSites.some((slug) => holdsOnSite(viewer, 'editor', slug))) return true;
  return (
    article.status !== 'draft' &&
    article.hostSites.some((slug) => viewer.grants.some((grant) => grant.siteSlug === slug))
  );
}

function rowAllows(viewer: PolicyViewer, { caller, scope }: PolicyRowOf, subject: PolicySubject): boolean {
  switch (scope) {
    case 'any':
    case 'listed':
    case 'self':
      return true;
    case 'site':
      return subject.kind === 'site' && holdsOnSite(viewer, caller, subject.siteSlug);
    case 'visible':
      return subject.kind === 'article' && isVisible(viewer, subject.article);
    case 'article':
      return subject.kind === 'article' && coversArticle(viewer, caller, subject.article);
    case 'own-draft':
      return (
        subject.kind === 'article' &&
        subject.article.createdBy === viewer.userId &&
        subject.article.status === 'draft' &&
        coversArticle(viewer, caller, subject.article)
      );
    case 'named-articles':
    case 'scheduled-action':
    case 'release':
      return (
        subject.kind === 'named-articles' &&
        subject.articles.length > 0 &&
        subject.articles.every((article) => coversArticle(viewer, caller, article))
      );
    default:
      // A scope this build does not know (a newer API): refuse, the API decides anyway.
      return false;
  }
}

/**
 * May the viewer call the operation on the subject? `hostSites`: the sites (slugs) a request body names as
 * host sites (undefined: none); each one it adds to the article or takes off must be granted with a role of an
 * allowing row. An operation without a row of the viewer's is refused (administrators: everything).
 */
export function policyAllows(
  viewer: PolicyViewer,
  operationId: string,
  subject: PolicySubject = nothing,
  hostSites?: readonly string[],
): boolean {
  if (viewer.everything) return true;
  const allowing = viewer.rows.filter(
    (row) => row.operationId === operationId && rowAllows(viewer, row, subject),
  );
  if (allowing.length === 0) return false;
  const roles = new Set(allowing.map((row) => row.caller));
  // As the domain: only the sites the list adds or takes off need a role; the article's others stay as they are.
  const current = subject.kind === 'article' ? subject.article.hostSites : [];
  const added = hostSites?.filter((slug) => !current.includes(slug)) ?? [];
  const removed = hostSites ? current.filter((slug) => !hostSites.includes(slug)) : [];
  return [...added, ...removed].every((slug) =>
    viewer.grants.some((g) => g.siteSlug === slug && roles.has(g.role)),
  );
}
