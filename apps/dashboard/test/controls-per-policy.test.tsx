import {
  type ArticleScope,
  findArticleScope,
  isAllowed,
  type PolicyActor,
  type PolicyTarget,
  type SiteRole,
  targetKindOf,
} from '@newsroom/domain';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { insertArticle, insertSite } from '../../api/test/support/content-fixtures';
import { grant, insertStaff, setCreatedBy } from '../../api/test/support/policy/staff-fixtures';
import { password, setUpDashboardApi } from './support/dashboard-test-app';
import { renderDashboard } from './support/render-dashboard';

// No control is shown that the API would refuse: for each staff role, the dashboard's views (the article
// list, the review queue, every article's editor, in and out of the role's scope) are rendered against the
// real API, and every visible control mapped to an operation (`data-operation`) must be allowed by the
// policy the API's guards run (packages/domain/src/policy) for that user and that article. The policy
// matrix (apps/api/test/policy-matrix.test.ts) proves the guards answer as that policy.

const api = await setUpDashboardApi();
const siteA = await insertSite(api.db, 'controls-a');
const siteB = await insertSite(api.db, 'controls-b');
const author = await insertStaff(api.app, api.db, 'editor');

async function articleOn(siteId: string, status: 'draft' | 'pending' | 'published', createdBy: string) {
  const article = await insertArticle(api.db, { status, siteIds: [siteId] });
  await setCreatedBy(api.db, article.id, createdBy);
  return article.id;
}

/** The operations of the controls on screen, once the view and the permissions have loaded. */
function shownOperations(): string[] {
  return [...document.querySelectorAll<HTMLElement>('[data-operation]')].map(
    (element) => element.dataset.operation as string,
  );
}

function targetOf(actor: PolicyActor, operationId: string, article: ArticleScope | undefined): PolicyTarget {
  const kind = targetKindOf(actor, operationId);
  if (kind === 'article' && article) return { kind: 'article', article };
  if (kind === 'named-articles' && article) return { kind: 'named-articles', articles: [article], named: 1 };
  return { kind: 'none' };
}

async function openAs(role: SiteRole) {
  const user = await insertStaff(api.app, api.db, role, { password });
  await grant(api.db, user.id, siteA, role);
  const actor: PolicyActor = { id: user.id, role, grants: [{ siteId: siteA, role }] };
  const articles = {
    ownDraftA: await articleOn(siteA, 'draft', user.id),
    otherDraftA: await articleOn(siteA, 'draft', author.id),
    pendingA: await articleOn(siteA, 'pending', author.id),
    publishedA: await articleOn(siteA, 'published', author.id),
    pendingB: await articleOn(siteB, 'pending', author.id),
    publishedB: await articleOn(siteB, 'published', author.id),
  };
  await api.signIn(user.email);
  return { actor, articles };
}

/** Renders a path and returns the refused controls shown (none expected) and every operation shown. */
async function check(actor: PolicyActor, path: string, articleId?: string) {
  const view = renderDashboard(path);
  // The navigation shows once the permissions are read; then the view's own content.
  await screen.findByRole('link', { name: 'Articles' });
  if (articleId)
    await waitFor(() =>
      expect(
        document.querySelector('[aria-label="Status and actions"]') ??
          screen.queryByRole('heading', { name: 'Not allowed' }) ??
          screen.queryByRole('alert'),
      ).toBeTruthy(),
    );
  else await waitFor(() => expect(screen.queryByRole('status', { name: /Loading/ })).toBeNull());
  const article = articleId ? await findArticleScope(api.db, articleId) : undefined;
  const shown = shownOperations();
  const refused = shown.filter(
    (operationId) => !isAllowed(actor, operationId, targetOf(actor, operationId, article)),
  );
  view.unmount();
  return { shown, refused: refused.map((operationId) => `${path}: ${operationId}`) };
}

describe('controls shown per policy', () => {
  for (const role of ['editor', 'contributor', 'reviewer'] as const) {
    it(`shows a ${role} no control the API would refuse, in and out of its sites`, {
      timeout: 120_000,
    }, async () => {
      const { actor, articles } = await openAs(role);
      const refused: string[] = [];
      const seen = new Map<string, string[]>();
      for (const path of ['/articles', '/review']) {
        const result = await check(actor, path);
        refused.push(...result.refused);
        seen.set(path, result.shown);
      }
      for (const [name, id] of Object.entries(articles)) {
        const result = await check(actor, `/articles/${id}`, id);
        refused.push(...result.refused);
        seen.set(name, result.shown);
      }
      expect(refused).toEqual([]);

      // And the allowed ones do show: the check above is not met by a view showing nothing.
      expect(seen.get('/articles')).toContain('listArticles');
      if (role === 'editor') {
        expect(seen.get('otherDraftA')).toEqual(expect.arrayContaining(['publishArticle', 'deleteArticle']));
        expect(seen.get('pendingA')).toEqual(expect.arrayContaining(['approveArticle', 'rejectArticle']));
      }
      if (role === 'contributor') {
        expect(seen.get('ownDraftA')).toEqual(expect.arrayContaining(['updateArticle', 'deleteArticle']));
        expect(seen.get('ownDraftA')).not.toContain('publishArticle');
        expect(seen.get('/articles')).not.toContain('listPendingArticles');
      }
      if (role === 'reviewer') {
        expect(seen.get('pendingA')).toEqual(expect.arrayContaining(['approveArticle', 'rejectArticle']));
        expect(seen.get('/articles')).not.toContain('createArticle');
      }
      for (const outOfScope of ['pendingB', 'publishedB'])
        expect(seen.get(outOfScope)?.filter((op) => !op.startsWith('list'))).toEqual([]);
    });
  }

  it('gives a contributor the not-allowed page on a deep link to the review queue', async () => {
    await openAs('contributor');
    renderDashboard('/review');
    expect(await screen.findByRole('heading', { name: 'Not allowed' })).toBeTruthy();
  });
});
