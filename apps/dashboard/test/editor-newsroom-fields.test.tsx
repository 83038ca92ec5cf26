import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { insertArticle } from '../../api/test/support/content-fixtures';
import { readingStats } from '../src/features/articles/components/newsroom-fields';
import { setUpDashboardApi } from './support/dashboard-test-app';
import { renderDashboard } from './support/render-dashboard';

// Issue 32 in the editor, against the real API: standfirst, bylines (reordered), a picture's alt text,
// caption, credit and focal point, a correction on a published article, word count and reading time.

const api = await setUpDashboardApi();

describe('newsroom fields in the editor', () => {
  it('counts words and minutes of reading', () => {
    expect(readingStats('')).toEqual({ words: 0, minutes: 0 });
    expect(readingStats('<p>One two</p><p>three &amp; four</p>')).toEqual({ words: 4, minutes: 1 });
    expect(readingStats(`<p>${'word '.repeat(690)}</p>`)).toEqual({ words: 690, minutes: 3 });
  });

  it('saves a standfirst, reordered bylines, picture details and a correction of a published article', {
    timeout: 90_000,
  }, async () => {
    const article = await insertArticle(api.db, { title: 'Ferry news', publishedAt: new Date() });
    const admin = await api.insertAdmin();
    await api.signIn(admin.email);
    const user = userEvent.setup({ delay: null });
    renderDashboard(`/articles/${article.id}`);
    await screen.findByDisplayValue('Ferry news');

    await user.type(screen.getByLabelText('Standfirst'), 'Winter sailings start early.');
    await user.click(screen.getByRole('button', { name: 'Add byline' }));
    await user.type(screen.getByLabelText('Author 1 name'), 'Ann Lee');
    await user.click(screen.getByRole('button', { name: 'Add byline' }));
    await user.type(screen.getByLabelText('Author 2 name'), 'Bo Chen');
    await user.type(screen.getByLabelText('Author 2 link'), 'https://example.com/bo');
    await user.click(screen.getByRole('button', { name: 'Move author 2 up' }));
    expect((screen.getByLabelText('Author 1 name') as HTMLInputElement).value).toBe('Bo Chen');

    await user.type(screen.getByLabelText('Image'), 'https://cdn.example.com/ferry.jpg');
    const details = within(await screen.findByRole('group', { name: 'Image details' }));
    expect(details.getByText('Alt text is required for a picture')).toBeTruthy();
    await user.type(details.getByLabelText(/Image alt text/), 'A ferry at the pier');
    await user.type(details.getByLabelText('Image credit'), 'Photo: Ann Lee');
    const picker = details.getByRole('button', { name: /Image focal point/ });
    picker.focus();
    await user.keyboard('{ArrowRight}{ArrowDown}');
    expect(picker.getAttribute('aria-label')).toContain('55% across, 55% down');

    await user.type(screen.getByLabelText('Add correction'), 'The ferry leaves at 8, not 9.');
    await user.click(await screen.findByRole('button', { name: 'Save' }));
    await waitFor(async () => {
      const row = await api.db
        .selectFrom('articles')
        .select(['standfirst', 'bylines', 'image', 'image_meta', 'corrections'])
        .where('id', '=', article.id)
        .executeTakeFirstOrThrow();
      expect(row.corrections.map((c) => c.text)).toEqual(['The ferry leaves at 8, not 9.']);
      expect(row).toMatchObject({
        standfirst: 'Winter sailings start early.',
        bylines: [
          { name: 'Bo Chen', url: 'https://example.com/bo', userId: null },
          { name: 'Ann Lee', url: null, userId: null },
        ],
        image: 'https://cdn.example.com/ferry.jpg',
        image_meta: {
          alt: 'A ferry at the pier',
          credit: 'Photo: Ann Lee',
          focalPoint: { x: 0.55, y: 0.55 },
        },
      });
    });
    // The note is sent once: the field is empty again after the save.
    await waitFor(() =>
      expect((screen.getByLabelText('Add correction') as HTMLTextAreaElement).value).toBe(''),
    );
  });
});
