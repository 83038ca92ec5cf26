import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { insertArticle, insertSite } from '../../api/test/support/content-fixtures';
import { grant, insertStaff } from '../../api/test/support/policy/staff-fixtures';
import { password, setUpDashboardApi } from './support/dashboard-test-app';
import { renderDashboard } from './support/render-dashboard';

// The editor's host sites (the shared site checkboxes): shown from the article, changed, saved with the
// host-site request, and a change is an unsaved change.

const api = await setUpDashboardApi();

const hostSitesOf = async (articleId: string) =>
  (
    await api.db
      .selectFrom('article_sites')
      .innerJoin('sites', 'sites.id', 'article_sites.site_id')
      .select('sites.slug')
      .where('article_sites.article_id', '=', articleId)
      .orderBy('sites.slug')
      .execute()
  ).map((row) => row.slug);

describe('host sites in the editor', () => {
  // First: this file's database has no site yet.
  it('says so when there are no child sites', async () => {
    const article = await insertArticle(api.db, { status: 'draft', title: 'No sites yet' });
    const admin = await api.insertAdmin();
    await api.signIn(admin.email);
    renderDashboard(`/articles/${article.id}`);
    await screen.findByDisplayValue('No sites yet');
    const group = within(screen.getByRole('group', { name: 'Host sites' }));
    expect(await group.findByText('No child sites exist yet.')).toBeTruthy();
    expect(group.queryAllByRole('checkbox')).toEqual([]);
  });

  it('shows the article’s sites, marks a change as unsaved and saves it', async () => {
    const north = await insertSite(api.db, 'north');
    await insertSite(api.db, 'south');
    const article = await insertArticle(api.db, { status: 'draft', title: 'Tide tables', siteIds: [north] });
    const admin = await api.insertAdmin();
    await api.signIn(admin.email);
    renderDashboard(`/articles/${article.id}`);
    await screen.findByDisplayValue('Tide tables');

    const group = within(screen.getByRole('group', { name: 'Host sites' }));
    expect(((await group.findByLabelText('Site north')) as HTMLInputElement).checked).toBe(true);
    expect((group.getByLabelText('Site south') as HTMLInputElement).checked).toBe(false);

    const user = userEvent.setup();
    await user.click(group.getByLabelText('Site south'));
    await user.click(group.getByLabelText('Site north'));
    expect(screen.getByText('Unsaved changes')).toBeTruthy();
    await user.click(await screen.findByRole('button', { name: 'Save' }));
    await screen.findByText('Saved');
    await waitFor(async () => expect(await hostSitesOf(article.id)).toEqual(['south']));
  });

  it('lets an editor add a site of theirs while one they hold no grant on stays, unchangeable', async () => {
    const east = await insertSite(api.db, 'east');
    const west = await insertSite(api.db, 'west');
    const elsewhere = await insertSite(api.db, 'elsewhere');
    const article = await insertArticle(api.db, {
      status: 'draft',
      title: 'Ferry times',
      siteIds: [east, elsewhere],
    });
    const editor = await insertStaff(api.app, api.db, 'editor', { password });
    await grant(api.db, editor.id, east, 'editor');
    await grant(api.db, editor.id, west, 'editor');
    await api.signIn(editor.email);
    renderDashboard(`/articles/${article.id}`);
    await screen.findByDisplayValue('Ferry times');

    const group = within(screen.getByRole('group', { name: 'Host sites' }));
    const theirs = (await group.findByLabelText(/Site elsewhere/)) as HTMLInputElement;
    await waitFor(() => expect(theirs.disabled).toBe(true));
    expect(theirs.checked).toBe(true);
    expect(group.getByText('(not yours to change)')).toBeTruthy();

    const user = userEvent.setup();
    await user.click(group.getByLabelText('Site west'));
    await user.click(await screen.findByRole('button', { name: 'Save' }));
    await screen.findByText('Saved');
    await waitFor(async () => expect(await hostSitesOf(article.id)).toEqual(['east', 'elsewhere', 'west']));
  });
});
