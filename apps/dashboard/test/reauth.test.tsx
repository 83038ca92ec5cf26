import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { insertArticle } from '../../api/test/support/content-fixtures';
import { pendingCountQuery } from '../src/api/review';
import { password, setUpDashboardApi } from './support/dashboard-test-app';
import { renderDashboard } from './support/render-dashboard';

// A session that ends while a view is open (idle timeout, sign-out or a password change elsewhere): the
// view stays, a sign-in dialog opens over it, and the requests that met the 401 are sent again after it.

const api = await setUpDashboardApi();
// Each case signs in twice and renders the editor: many seconds on a busy 2-core machine.
vi.setConfig({ testTimeout: 45_000 });
beforeEach(() => localStorage.clear());

const stored = (id: string) =>
  api.db.selectFrom('articles').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** The session ends on the server: the browser's cookie no longer opens anything. */
const endSessions = () => api.db.deleteFrom('dashboard_sessions').execute();

async function openEditor() {
  const article = await insertArticle(api.db, { status: 'published', title: 'Ferry timetable changes' });
  const admin = await api.insertAdmin();
  await api.signIn(admin.email);
  const view = renderDashboard(`/articles/${article.id}`);
  await screen.findByDisplayValue('Ferry timetable changes');
  // The view's own reads done: the 401 below is met by what the test does.
  await waitFor(() => expect(view.dashboard.queryClient.isFetching()).toBe(0));
  return { article, admin, view };
}

describe('signing in again over the view', () => {
  it('keeps the editor and its text when a save meets an ended session, and saves after the sign-in', async () => {
    const { article, admin, view } = await openEditor();
    const user = userEvent.setup();
    const title = screen.getByLabelText('Title');
    await user.clear(title);
    await user.type(title, 'Ferry timetable changes on Monday');
    await endSessions();
    await user.click(await screen.findByRole('button', { name: 'Save' }));

    const dialog = await screen.findByRole('dialog', { name: 'Sign in again' });
    expect(view.path()).toBe(`/articles/${article.id}`);
    expect(screen.getByLabelText('Title', { selector: 'input[name="title"]' })).toHaveProperty(
      'value',
      'Ferry timetable changes on Monday',
    );
    // The e-mail is the person's own; the focus waits in the password field.
    expect(within(dialog).getByLabelText('E-mail')).toHaveProperty('value', admin.email);
    expect(document.activeElement).toBe(within(dialog).getByLabelText('Password'));
    expect((await stored(article.id)).title).toBe('Ferry timetable changes');

    await user.type(within(dialog).getByLabelText('Password'), password);
    await user.click(within(dialog).getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(async () =>
      expect((await stored(article.id)).title).toBe('Ferry timetable changes on Monday'),
    );
    await screen.findByText(/^Saved \d{2}:\d{2}$/);
    expect(view.path()).toBe(`/articles/${article.id}`);
  });

  it('creates a new draft after the sign-in when Create draft met the ended session', async () => {
    const admin = await api.insertAdmin();
    await api.signIn(admin.email);
    const view = renderDashboard('/articles/new');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Title'), 'Storm warning for the coast');
    await waitFor(() => expect(view.dashboard.queryClient.isFetching()).toBe(0));
    await endSessions();
    await user.click(screen.getByRole('button', { name: 'Create draft' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign in again' });
    expect(view.path()).toBe('/articles/new');
    await user.type(within(dialog).getByLabelText('Password'), password);
    await user.click(within(dialog).getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(view.path()).toMatch(/^\/articles\/[0-9a-f-]{36}$/));
    const id = view.path().split('/').pop() as string;
    expect((await stored(id)).title).toBe('Storm warning for the coast');
  });

  it('says so when the password is wrong, and keeps waiting', async () => {
    await openEditor();
    const user = userEvent.setup();
    await endSessions();
    await user.click(screen.getByRole('link', { name: 'Reports' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign in again' });
    await user.type(within(dialog).getByLabelText('Password'), 'not the password at all');
    await user.click(within(dialog).getByRole('button', { name: 'Sign in' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Wrong e-mail or password');
    await user.clear(within(dialog).getByLabelText('Password'));
    await user.type(within(dialog).getByLabelText('Password'), password);
    await user.click(within(dialog).getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await screen.findByRole('heading', { name: /report/i, level: 1 });
  });

  it('keeps the view when a background poll meets the ended session; Sign out goes to /login, the text kept in the browser', async () => {
    const { article, admin, view } = await openEditor();
    const user = userEvent.setup();
    const title = screen.getByLabelText('Title');
    await user.type(title, ' (update)');
    await endSessions();
    // The navigation's pending count refreshes about once a minute: here, now.
    void view.dashboard.queryClient.refetchQueries({ queryKey: pendingCountQuery.queryKey });

    const dialog = await screen.findByRole('dialog', { name: 'Sign in again' });
    expect(view.path()).toBe(`/articles/${article.id}`);
    expect(screen.getByLabelText('Title', { selector: 'input[name="title"]' })).toHaveProperty(
      'value',
      'Ferry timetable changes (update)',
    );
    // Giving up leaves the view (the browser's copy of the text stays: local-copy.test.tsx).
    await user.click(within(dialog).getByRole('button', { name: 'Sign out' }));
    await waitFor(() =>
      expect(view.path()).toBe(`/login?next=${encodeURIComponent(`/articles/${article.id}`)}`),
    );
    // Signing in on /login leads back to the editor, which offers the text typed before.
    await user.type(await screen.findByLabelText('E-mail'), admin.email);
    await user.type(screen.getByLabelText('Password'), password);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    const offer = await screen.findByRole('region', { name: 'Unsaved text from before' });
    await user.click(within(offer).getByRole('button', { name: 'Restore' }));
    expect(screen.getByLabelText('Title', { selector: 'input[name="title"]' })).toHaveProperty(
      'value',
      'Ferry timetable changes (update)',
    );
  });
});
