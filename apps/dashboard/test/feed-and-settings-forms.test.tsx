import { readFeedFixture, startFeedServer } from '@newsroom/test-support';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, describe, expect, it } from 'vitest';
import { insertSite } from '../../api/test/support/content-fixtures';
import { setUpDashboardApi } from './support/dashboard-test-app';
import { errorOf } from './support/field-error';
import { renderDashboard } from './support/render-dashboard';

// A publisher's own feed form (Save anyway after a refused test) and an administrator's publisher settings.

const api = await setUpDashboardApi({ FEED_ALLOW_PRIVATE_ADDRESSES: 'true' });
const feeds = await startFeedServer({
  '/feed.rss': { body: readFeedFixture('guardian.rss') },
  '/page.html': { body: '<!doctype html><title>Not a feed</title><p>Hello</p>', contentType: 'text/html' },
});
afterAll(() => feeds.close());

const stored = (publisherId: string) =>
  api.db
    .selectFrom('publishers')
    .select(['feed_url', 'default_tags', 'auto_approve'])
    .where('id', '=', publisherId)
    .executeTakeFirstOrThrow();
const manyTags = Array.from({ length: 31 }, (_, i) => `tag${i}`).join(', ');

describe('feed form', () => {
  async function openFeedPage() {
    const publisher = await api.insertPublisher({ name: 'Quay desk' });
    await api.signIn(publisher.email);
    renderDashboard('/publisher/feed');
    await screen.findByLabelText('Feed address');
    return { publisher, user: userEvent.setup() };
  }

  it('asks before saving an address the test refused: Cancel saves nothing, Save anyway saves it', async () => {
    const { publisher, user } = await openFeedPage();
    await user.type(screen.getByLabelText('Feed address'), feeds.url('/page.html'));
    await user.click(screen.getByRole('button', { name: 'Test feed' }));
    await screen.findByText(/does not return an RSS, Atom or JSON feed/);

    await user.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Save an address that failed the test?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect((await stored(publisher.publisherId)).feed_url).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Save' }));
    const again = await screen.findByRole('alertdialog', { name: 'Save an address that failed the test?' });
    await user.click(within(again).getByRole('button', { name: 'Save anyway' }));
    await screen.findByText('Feed settings saved');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect((await stored(publisher.publisherId)).feed_url).toBe(feeds.url('/page.html'));
  });

  it('saves without asking once the refused address is edited (the test is forgotten)', async () => {
    const { publisher, user } = await openFeedPage();
    await user.type(screen.getByLabelText('Feed address'), feeds.url('/page.html'));
    await user.click(screen.getByRole('button', { name: 'Test feed' }));
    await screen.findByText(/does not return an RSS, Atom or JSON feed/);
    await user.clear(screen.getByLabelText('Feed address'));
    await user.type(screen.getByLabelText('Feed address'), feeds.url('/feed.rss'));
    expect(screen.queryByText(/does not return an RSS/)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Feed settings saved');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect((await stored(publisher.publisherId)).feed_url).toBe(feeds.url('/feed.rss'));
  });

  it('refuses more than 30 default tags before sending, at the tags field', async () => {
    const { publisher, user } = await openFeedPage();
    await user.type(screen.getByLabelText('Default tags'), manyTags);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(errorOf('Default tags')).toBe('At most 30'));
    expect(document.activeElement).toBe(screen.getByLabelText('Default tags'));
    expect((await stored(publisher.publisherId)).default_tags).toEqual([]);
  });
});

describe('publisher settings', () => {
  async function openSettings(sites: string[] = []) {
    for (const slug of sites) await insertSite(api.db, slug);
    const publisher = await api.insertPublisher({ name: 'Bay desk', approved: true });
    const admin = await api.insertAdmin();
    await api.signIn(admin.email);
    renderDashboard(`/publishers/${publisher.publisherId}`);
    await screen.findByRole('heading', { name: 'Bay desk', level: 1 });
    return {
      publisher,
      form: within(screen.getByRole('form', { name: 'Publisher settings' })),
      user: userEvent.setup(),
    };
  }

  it('saves auto-approve, the default tags and the default host sites', async () => {
    const { publisher, form, user } = await openSettings(['metro', 'coast']);
    await user.click(form.getByLabelText(/^Auto-approve/));
    await user.type(form.getByLabelText('Default tags'), 'bay, harbour');
    await user.click(await form.findByLabelText('Site metro'));
    await user.click(form.getByLabelText('Site coast'));
    await user.click(form.getByRole('button', { name: 'Save settings' }));
    await screen.findByText('Settings saved');
    expect(await stored(publisher.publisherId)).toMatchObject({
      auto_approve: true,
      default_tags: ['bay', 'harbour'],
    });
    const read = await api.api().fetch(`/api/v1/publisher/${publisher.publisherId}`);
    expect(((await read.json()) as { defaultHostSites: string[] }).defaultHostSites.sort()).toEqual([
      'coast',
      'metro',
    ]);
  });

  it('refuses more than 30 default tags before sending, at the tags field', async () => {
    const { publisher, form, user } = await openSettings();
    await user.type(form.getByLabelText('Default tags'), manyTags);
    await user.click(form.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(errorOf('Default tags', form)).toBe('At most 30'));
    expect((await stored(publisher.publisherId)).default_tags).toEqual([]);
  });
});
