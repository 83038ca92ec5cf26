import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { insertArticle, insertSite } from '../../api/test/support/content-fixtures';
import { setUpDashboardApi } from './support/dashboard-test-app';
import { renderDashboard } from './support/render-dashboard';

// The list filters (shared select, Search button, text that follows the URL) on the real views.

const api = await setUpDashboardApi();

async function signedIn(path: string, heading: string) {
  const admin = await api.insertAdmin();
  await api.signIn(admin.email);
  const view = renderDashboard(path);
  await screen.findByRole('heading', { name: heading, level: 1 });
  return { view, user: userEvent.setup() };
}

describe('article filters', () => {
  it('puts the status, the site and the title text in the URL, and reads them back from it', async () => {
    await insertSite(api.db, 'metro');
    await insertArticle(api.db, { status: 'draft', title: 'Harbour works begin' });
    await insertArticle(api.db, { status: 'published', title: 'Council votes' });
    const { view, user } = await signedIn('/articles', 'Articles');
    const form = within(screen.getByRole('form', { name: 'Filter articles' }));

    await user.selectOptions(form.getByLabelText('Status'), 'draft');
    await waitFor(() => expect(view.path()).toBe('/articles?status=draft'));
    await screen.findByRole('link', { name: 'Harbour works begin' });
    expect(screen.queryByRole('link', { name: 'Council votes' })).toBeNull();

    await form.findByRole('option', { name: 'Site metro' });
    await user.selectOptions(form.getByLabelText('Site'), 'metro');
    await waitFor(() => expect(view.path()).toContain('site=metro'));
    await user.selectOptions(form.getByLabelText('Site'), '');
    await waitFor(() => expect(view.path()).not.toContain('site='));

    await user.type(form.getByLabelText('Title contains'), '  harbour ');
    await user.click(form.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(view.path()).toContain('q=harbour'));
    expect((form.getByLabelText('Status') as HTMLSelectElement).value).toBe('draft');
  });

  it('shows the text of the URL it was opened with', async () => {
    await signedIn('/articles?q=tide&tag=weather', 'Articles');
    const form = within(screen.getByRole('form', { name: 'Filter articles' }));
    expect((form.getByLabelText('Title contains') as HTMLInputElement).value).toBe('tide');
    expect((form.getByLabelText('Tag') as HTMLInputElement).value).toBe('weather');
  });
});

describe('publisher filters', () => {
  it('filters by state and searches by name; "All states" clears the state', async () => {
    await api.insertPublisher({ name: 'Quay Courier', approved: true });
    await api.insertPublisher({ name: 'Mill Gazette' });
    const { view, user } = await signedIn('/publishers', 'Publishers');
    const form = within(screen.getByRole('form', { name: 'Filter publishers' }));
    expect([...(form.getByLabelText('State') as HTMLSelectElement).options][0]?.text).toBe('All states');

    await user.type(form.getByLabelText('Search', { selector: 'input' }), 'quay');
    await user.click(form.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(view.path()).toContain('q=quay'));
    await screen.findByText('Quay Courier');
    await waitFor(() => expect(screen.queryByText('Mill Gazette')).toBeNull());

    const state = form.getByLabelText('State') as HTMLSelectElement;
    await user.selectOptions(state, state.options[1]?.value ?? '');
    await waitFor(() => expect(view.path()).toContain('state='));
    await user.selectOptions(state, '');
    await waitFor(() => expect(view.path()).not.toContain('state='));
    expect(view.path()).toContain('q=quay');
  });
});
