import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { insertArticle, insertSite } from '../../api/test/support/content-fixtures';
import { grant, insertStaff, setCreatedBy } from '../../api/test/support/policy/staff-fixtures';
import { password, setUpDashboardApi } from './support/dashboard-test-app';
import { renderDashboard } from './support/render-dashboard';

// An article the policy lets a user read but not change opens read-only: the note says so, no field takes
// typing (the body is not editable, its toolbar gone), there is no Save and nothing is autosaved. An
// article the user may change opens as the form it always was.

const api = await setUpDashboardApi();
const siteA = await insertSite(api.db, 'read-only-a');
const siteB = await insertSite(api.db, 'read-only-b');
const author = await insertStaff(api.app, api.db, 'editor');

async function articleOn(siteIds: string[], status: 'draft' | 'pending') {
  const article = await insertArticle(api.db, { status, siteIds });
  await setCreatedBy(api.db, article.id, author.id);
  return article.id;
}

async function signedInAs(role: 'editor' | 'contributor' | 'reviewer') {
  const user = await insertStaff(api.app, api.db, role, { password });
  await grant(api.db, user.id, siteA, role);
  await api.signIn(user.email);
}

/** Opens the editor and waits until the permissions have decided what it shows. */
async function open(id: string) {
  const view = renderDashboard(`/articles/${id}`);
  await screen.findByRole('region', { name: 'Status and actions' });
  await screen.findByRole('link', { name: 'Articles' });
  return view;
}

const body = () => screen.getByRole('textbox', { name: 'Body' });
const readOnlyNote = () => screen.queryByRole('note');

describe('an article the user may read but not change', () => {
  it('opens read-only for a reviewer', async () => {
    await signedInAs('reviewer');
    const view = await open(await articleOn([siteA], 'pending'));
    await waitFor(() =>
      expect(readOnlyNote()?.textContent).toMatch(/You can read this article but not change it/),
    );
    expect(screen.getByRole('textbox', { name: 'Title' }).matches(':disabled')).toBe(true);
    expect(body().getAttribute('contenteditable')).toBe('false');
    expect(body().getAttribute('aria-readonly')).toBe('true');
    expect(screen.queryByRole('toolbar', { name: 'Body formatting' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    // The review decision stays: reading is what a reviewer does before deciding.
    expect(screen.getByRole('button', { name: 'Approve' })).toBeTruthy();
    view.unmount();
  });

  it("opens read-only for a contributor on someone else's pending article", async () => {
    await signedInAs('contributor');
    const view = await open(await articleOn([siteA], 'pending'));
    await waitFor(() => expect(readOnlyNote()).toBeTruthy());
    expect(screen.getByRole('textbox', { name: 'Title' }).matches(':disabled')).toBe(true);
    expect(body().getAttribute('contenteditable')).toBe('false');
    view.unmount();
  });

  it('opens as a form when the user may change it, also on a site they hold no grant for', async () => {
    await signedInAs('editor');
    const view = await open(await articleOn([siteA, siteB], 'draft'));
    await screen.findByRole('button', { name: 'Save' });
    expect(readOnlyNote()).toBeNull();
    expect(screen.getByRole('textbox', { name: 'Title' }).matches(':disabled')).toBe(false);
    expect(body().getAttribute('contenteditable')).toBe('true');
    expect(screen.getByRole('toolbar', { name: 'Body formatting' })).toBeTruthy();
    view.unmount();
  });
});
