import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { insertArticle } from '../../api/test/support/content-fixtures';
import { emptyDraft } from '../src/features/articles/components/article-draft';
import {
  applyChanges,
  changesOf,
  localCopyKey,
  readLocalCopy,
  removeLocalCopy,
  writeLocalCopy,
} from '../src/features/articles/components/local-copy';
import { saveStatusText } from '../src/features/articles/components/use-autosave';
import { sentRequest } from './support/api-fetch';
import { setUpDashboardApi } from './support/dashboard-test-app';
import { renderDashboard } from './support/render-dashboard';

// The browser's copy of unsaved changes (local-copy.ts) and its offer in the editor, and autosave to the
// server, against the real API.

const api = await setUpDashboardApi();

beforeEach(() => localStorage.clear());

const stored = (id: string) =>
  api.db.selectFrom('articles').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('the local copy store', () => {
  it('keeps only the changed fields, per person and article, and puts them back over a newer version', () => {
    const base = { ...emptyDraft, title: 'Harbour', body: '<p>Old</p>', tags: ['a'] };
    const changes = changesOf(base, { ...base, body: '<p>New</p>', tags: ['a', 'b'] });
    expect(changes).toEqual({ body: '<p>New</p>', tags: ['a', 'b'] });
    // Someone else changed the title meanwhile: restoring keeps their title and brings back this body.
    const theirs = { ...base, title: 'Harbour reopens' };
    expect(applyChanges(theirs, changes)).toEqual({ ...theirs, body: '<p>New</p>', tags: ['a', 'b'] });

    const key = localCopyKey('user-1', 'article-1');
    expect(key).not.toBe(localCopyKey('user-2', 'article-1'));
    expect(localCopyKey('user-1', null)).toBe('newsroom:article-copy:user-1:new');
    writeLocalCopy(key, { changes, savedAt: '2026-11-27T12:04:00.000Z' });
    expect(readLocalCopy(key)).toEqual({ changes, savedAt: '2026-11-27T12:04:00.000Z' });
    expect(readLocalCopy(localCopyKey('user-2', 'article-1'))).toBeNull();
    removeLocalCopy(key);
    expect(readLocalCopy(key)).toBeNull();
  });

  it('ignores an entry that is not a copy', () => {
    localStorage.setItem('newsroom:article-copy:u:x', '{not json');
    expect(readLocalCopy('newsroom:article-copy:u:x')).toBeNull();
    localStorage.setItem('newsroom:article-copy:u:y', '"a string"');
    expect(readLocalCopy('newsroom:article-copy:u:y')).toBeNull();
  });

  it('says "Saved HH:MM" after a save, and what is going on otherwise', () => {
    const at = new Date(2026, 10, 27, 9, 4);
    const state = { isNew: false, dirty: false, autosave: { kind: 'idle' } as const, lastSavedAt: at };
    expect(saveStatusText(state)).toBe('Saved 09:04');
    expect(saveStatusText({ ...state, lastSavedAt: null })).toBe('All changes saved');
    expect(saveStatusText({ ...state, dirty: true })).toBe('Unsaved changes');
    expect(saveStatusText({ ...state, autosave: { kind: 'saving' } })).toBe('Saving…');
    expect(saveStatusText({ ...state, dirty: true, autosave: { kind: 'conflict' } })).toBe(
      'Not saved: someone else changed this article',
    );
  });
});

async function openEditor(status: 'draft' | 'published') {
  const article = await insertArticle(api.db, { status, title: 'Ferry timetable changes' });
  const admin = await api.insertAdmin();
  await api.signIn(admin.email);
  const view = renderDashboard(`/articles/${article.id}`);
  await screen.findByDisplayValue('Ferry timetable changes');
  return { article, view };
}

describe('the editor with the local copy and autosave', () => {
  it('offers the changes of an editor that was closed without saving, and restores them', async () => {
    const { article, view } = await openEditor('published');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Category'), 'Local');
    await waitFor(() => expect(JSON.stringify({ ...localStorage })).toContain('Local'));
    // The tab is gone: the app unmounts without saving.
    view.unmount();

    renderDashboard(`/articles/${article.id}`);
    const offer = await screen.findByRole('region', { name: 'Unsaved text from before' });
    expect(screen.getByLabelText('Category')).toHaveProperty('value', '');
    await user.click(within(offer).getByRole('button', { name: 'Restore' }));
    expect(screen.getByLabelText('Category')).toHaveProperty('value', 'Local');
    expect(screen.queryByRole('region', { name: 'Unsaved text from before' })).toBeNull();
    await screen.findByText('Unsaved changes');
    await user.click(await screen.findByRole('button', { name: 'Save' }));
    await waitFor(async () => expect((await stored(article.id)).category).toBe('Local'));
    // The server has it: the copy is gone.
    await waitFor(() => expect(JSON.stringify({ ...localStorage })).not.toContain('Local'));
  });

  it('drops the copy on Discard', async () => {
    const { article, view } = await openEditor('published');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Section'), 'Transport');
    await waitFor(() => expect(JSON.stringify({ ...localStorage })).toContain('Transport'));
    view.unmount();

    renderDashboard(`/articles/${article.id}`);
    const offer = await screen.findByRole('region', { name: 'Unsaved text from before' });
    await user.click(within(offer).getByRole('button', { name: 'Discard' }));
    expect(screen.queryByRole('region', { name: 'Unsaved text from before' })).toBeNull();
    expect(JSON.stringify({ ...localStorage })).not.toContain('Transport');
    expect(screen.getByLabelText('Section')).toHaveProperty('value', '');
  });

  it('autosaves a draft after typing stops: "Saved HH:MM", the server has it, the copy is gone, still a draft', async () => {
    const { article } = await openEditor('draft');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Category'), 'Local');
    await screen.findByText(/^Saved \d{2}:\d{2}$/, {}, { timeout: 15_000 });
    expect(await stored(article.id)).toMatchObject({ category: 'Local', status: 'draft' });
    expect(JSON.stringify({ ...localStorage })).not.toContain('Local');
  });

  it('never autosaves a published article (a save would go live)', async () => {
    const { article } = await openEditor('published');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Category'), 'Local');
    // Longer than the autosave delay: still unsaved, on the server as before.
    await new Promise((resolve) => setTimeout(resolve, 4_500));
    expect(screen.getByText('Unsaved changes')).toBeTruthy();
    expect((await stored(article.id)).category).toBeNull();
  });

  it('sends a Save made while an autosave is under way with the version that autosave produced: no conflict', async () => {
    const { article } = await openEditor('draft');
    // The autosave's answer is held back (a slow network): the server has saved, the editor does not know yet.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let first = true;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const { method } = await sentRequest(input, init);
      const response = await api.api().fetch(input, init);
      if (method === 'PUT' && first) {
        first = false;
        await held;
      }
      return response;
    });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Category'), 'Local');
    await screen.findByText('Saving…', {}, { timeout: 15_000 });
    await user.type(screen.getByLabelText('Section'), 'Ferries');
    await user.click(await screen.findByRole('button', { name: 'Save' }));
    release();
    await waitFor(async () =>
      expect(await stored(article.id)).toMatchObject({ category: 'Local', section: 'Ferries' }),
    );
    await screen.findByText(/^Saved \d{2}:\d{2}$/);
    expect(screen.queryByRole('alertdialog', { name: 'Changed by someone else' })).toBeNull();
    expect(api.api().calls.filter((call) => call.status === 412)).toEqual([]);
  });
});
