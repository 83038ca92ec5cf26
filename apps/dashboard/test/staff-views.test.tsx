import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { insertStaff } from '../../api/test/support/policy/staff-fixtures';
import { password, setUpDashboardApi } from './support/dashboard-test-app';
import { renderDashboard } from './support/render-dashboard';

// Staff roles (editor, contributor, reviewer) in the dashboard: their start page, their navigation, and the
// not-allowed page on a deep link outside their rights.

const api = await setUpDashboardApi();

describe('a signed-in editor', () => {
  it('starts on the articles, sees only Articles and Review in the navigation', async () => {
    const editor = await insertStaff(api.app, api.db, 'editor', { password });
    await api.signIn(editor.email);
    const view = renderDashboard('/');
    await waitFor(() => expect(view.path()).toBe('/articles'));
    const navigation = await screen.findByRole('navigation');
    // Its entries follow the permissions, read once after the session.
    await within(navigation).findByRole('link', { name: 'Articles' });
    const links = [...navigation.querySelectorAll('a')].map((a) => a.textContent?.trim());
    expect(links).toContain('Articles');
    expect(links).not.toContain('Publishers');
    expect(links).not.toContain('Sites');
  });

  it('gets the not-allowed page on a deep link to an administrator view', async () => {
    const editor = await insertStaff(api.app, api.db, 'editor', { password });
    await api.signIn(editor.email);
    renderDashboard('/publishers');
    expect(await screen.findByRole('heading', { name: 'Not allowed' })).toBeTruthy();
    expect(screen.getByText('Your role cannot open this page.')).toBeTruthy();
  });
});
