import { findPreviewArticle } from '@newsroom/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { insertArticle } from '../../api/test/support/content-fixtures';
import { setUpDashboardApi } from './support/dashboard-test-app';
import { renderDashboard } from './support/render-dashboard';

// The editor's Preview links panel against the real API: make a link (live or pinned), copy it, see it listed
// (never the token), revoke it after a confirmation; the link itself opens with no key, and not once revoked.

const api = await setUpDashboardApi();

async function openEditor() {
  const article = await insertArticle(api.db, { status: 'draft', title: 'Tide tables for winter' });
  const admin = await api.insertAdmin();
  await api.signIn(admin.email);
  renderDashboard(`/articles/${article.id}`);
  await screen.findByRole('heading', { name: 'Edit article', level: 1 });
  const panel = (await screen.findByRole('heading', { name: 'Preview links' })).closest(
    'section',
  ) as HTMLElement;
  await within(panel).findByText('No active preview links.');
  return { article, panel: within(panel) };
}

// What the link opens, asked of the domain's preview lookup (the route itself is tested in apps/api and, opened
// by a browser with no key, in e2e/preview-links.browser.test.ts: under jsdom, Fastify takes a Buffer body for an
// object to serialise, so the client routes cannot be injected from here).
const opens = (url: string) => findPreviewArticle(api.db, url.split('/preview/')[1] ?? '');

describe('preview links in the article editor', () => {
  it('creates a pinned link, copies it, lists it without its token, and revokes it after confirming', async () => {
    const { article, panel } = await openEditor();
    const user = userEvent.setup();
    await user.selectOptions(panel.getByLabelText('Shows'), 'pinned');
    await user.selectOptions(panel.getByLabelText('Expires after'), '24');
    await user.click(panel.getByRole('button', { name: 'Create preview link' }));

    const notice = (await screen.findByRole('heading', { name: 'Copy the preview link now' })).closest(
      'section',
    ) as HTMLElement;
    const link = (within(notice).getByLabelText('New preview link') as HTMLInputElement).value;
    expect(link).toMatch(/\/api\/v1\/client\/preview\/npv_[A-Za-z0-9_-]{43}$/);
    await user.click(within(notice).getByRole('button', { name: 'Copy link' }));
    await within(notice).findByText('Copied to the clipboard.');
    expect(await navigator.clipboard.readText()).toBe(link);

    expect(await opens(link)).toMatchObject({ id: article.id, title: 'Tide tables for winter' });

    await user.click(within(notice).getByRole('button', { name: 'Done' }));
    const token = link.split('/preview/')[1] ?? '';
    const prefix = token.slice(0, 10);
    const row = (await panel.findByText(`${prefix}…`)).closest('tr') as HTMLElement;
    expect(row.textContent).toContain('Pinned');
    expect(document.body.textContent).not.toContain(token);
    const stored = await api.db
      .selectFrom('article_preview_links')
      .select(['expires_at', 'created_at'])
      .where('article_id', '=', article.id)
      .executeTakeFirstOrThrow();
    expect(stored.expires_at.getTime() - stored.created_at.getTime()).toBeLessThanOrEqual(
      24 * 3_600_000 + 5_000,
    );

    await user.click(within(row).getByRole('button', { name: `Revoke preview link ${prefix}` }));
    const dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(await opens(link)).toMatchObject({ id: article.id });
    await user.click(within(row).getByRole('button', { name: `Revoke preview link ${prefix}` }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Revoke link' }),
    );
    await screen.findByText('Preview link revoked');
    await panel.findByText('No active preview links.');
    expect(await opens(link)).toBeUndefined();
  });

  it('makes a live link by default, which shows later saves', async () => {
    const { article, panel } = await openEditor();
    const user = userEvent.setup();
    await user.click(panel.getByRole('button', { name: 'Create preview link' }));
    const link = ((await screen.findByLabelText('New preview link')) as HTMLInputElement).value;
    await api.db
      .updateTable('articles')
      .set({ title: 'Tide tables, revised' })
      .where('id', '=', article.id)
      .execute();
    expect((await opens(link))?.title).toBe('Tide tables, revised');
    await user.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(panel.getByRole('cell', { name: 'Live' })).toBeTruthy());
  });
});
