import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { insertSite } from '../../api/test/support/content-fixtures';
import { setUpDashboardApi } from './support/dashboard-test-app';
import { renderDashboard } from './support/render-dashboard';

const api = await setUpDashboardApi();

async function openSites() {
  const admin = await api.insertAdmin();
  await api.signIn(admin.email);
  renderDashboard('/sites');
  await screen.findByRole('heading', { name: 'Sites', level: 1 });
}

// The key against the client API is the end-to-end test's part (a real Node process serving Chromium);
// here the stored record is checked: the key's prefix only, and the revocation.
const storedKeys = (siteId: string) =>
  api.db
    .selectFrom('site_api_keys')
    .select(['key_prefix', 'revoked_at'])
    .where('site_id', '=', siteId)
    .execute();

describe('child sites', () => {
  it('says so when there are no sites, then creates one with a slug suggested from its name', async () => {
    await openSites();
    await screen.findByText('No sites yet. Create the first one above.');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Site name'), 'Metro Evening');
    expect((screen.getByLabelText('Slug') as HTMLInputElement).value).toBe('metro-evening');
    await user.type(screen.getByLabelText('Domain'), 'not a domain');
    await user.click(screen.getByRole('button', { name: 'Create site' }));
    await screen.findByText(/Enter a host name such as news.example.com/);

    await user.clear(screen.getByLabelText('Domain'));
    await user.type(screen.getByLabelText('Domain'), 'metro.example.com');
    await user.click(screen.getByRole('button', { name: 'Create site' }));
    await screen.findByRole('heading', { name: 'Metro Evening', level: 2 });
    const site = await api.db
      .selectFrom('sites')
      .selectAll()
      .where('slug', '=', 'metro-evening')
      .executeTakeFirstOrThrow();
    expect(site.domain).toBe('metro.example.com');
  });

  it('shows a new key once, with a copy button and a warning; listed without it; revoked after confirmation', async () => {
    const siteId = await insertSite(api.db, 'harbour');
    await openSites();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'API keys of Site harbour' }));
    await screen.findByText('No keys yet: this site cannot read the client API.');
    await user.type(screen.getByLabelText('Key name'), 'production');
    await user.click(screen.getByRole('button', { name: 'Create key' }));

    const notice = (await screen.findByRole('heading', { name: 'Copy the key “production” now' })).closest(
      'section',
    ) as HTMLElement;
    expect(notice.textContent).toContain('It is shown only this once');
    const key = (within(notice).getByLabelText('New API key') as HTMLInputElement).value;
    expect(key).toMatch(/^nsk_/);
    await user.click(within(notice).getByRole('button', { name: 'Copy key' }));
    await within(notice).findByText('Copied to the clipboard.');
    expect(await navigator.clipboard.readText()).toBe(key);
    expect(await storedKeys(siteId)).toEqual([{ key_prefix: key.slice(0, 12), revoked_at: null }]);

    // Listed by name and prefix, never the key itself.
    const row = (await screen.findByRole('cell', { name: 'production' })).closest('tr') as HTMLElement;
    expect(within(row).getByText('Active')).toBeTruthy();
    await user.click(within(notice).getByRole('button', { name: 'I have stored the key' }));
    await waitFor(() => expect(screen.queryByLabelText('New API key')).toBeNull());
    expect(document.body.innerHTML).not.toContain(key);
    expect(within(row).getByText(key.slice(0, 12), { exact: false })).toBeTruthy();

    await user.click(within(row).getByRole('button', { name: 'Revoke key production' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Revoke the key “production”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Revoke key' }));
    await within(row).findByText(/^Revoked/);
    await waitFor(async () => expect((await storedKeys(siteId))[0]?.revoked_at).not.toBeNull());
  });

  it('renames a site', async () => {
    await insertSite(api.db, 'riverside');
    await openSites();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit Site riverside' }));
    const form = screen.getByRole('form', { name: 'Edit Site riverside' });
    await user.clear(within(form).getByLabelText('Site name'));
    await user.type(within(form).getByLabelText('Site name'), 'Riverside Post');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await screen.findByRole('heading', { name: 'Riverside Post', level: 2 });
  });

  it('sets the article URL template and language the feeds need; an unusable template is refused at the field', async () => {
    await insertSite(api.db, 'syndicated');
    await openSites();
    const card = (await screen.findByRole('heading', { name: 'Site syndicated', level: 2 })).closest(
      'li',
    ) as HTMLElement;
    within(card).getByText('No article URL template: no feeds or sitemaps');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit Site syndicated' }));
    const form = screen.getByRole('form', { name: 'Edit Site syndicated' });
    await user.type(
      within(form).getByLabelText('Article URL template'),
      'https://syndicated.example.com/news',
    );
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await within(form).findByText(/such as https:\/\/\{domain\}\/news\/\{slug\}/);

    await user.clear(within(form).getByLabelText('Article URL template'));
    // user-event reads { as the start of a key descriptor: {{ types one.
    await user.type(
      within(form).getByLabelText('Article URL template'),
      'https://syndicated.example.com/n/{{slug}',
    );
    await user.clear(within(form).getByLabelText('Language'));
    await user.type(within(form).getByLabelText('Language'), 'de');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await within(card).findByText('https://syndicated.example.com/n/{slug}');
    const site = await api.db
      .selectFrom('sites')
      .select(['article_url_template', 'language'])
      .where('slug', '=', 'syndicated')
      .executeTakeFirstOrThrow();
    expect(site).toEqual({ article_url_template: 'https://syndicated.example.com/n/{slug}', language: 'de' });
  });

  it('sets the browser origins allowed to read (CORS) and the public base; a path is refused at the field', async () => {
    await insertSite(api.db, 'browser');
    await openSites();
    const card = (await screen.findByRole('heading', { name: 'Site browser', level: 2 })).closest(
      'li',
    ) as HTMLElement;
    within(card).getByText('No browser origin may read its content');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit Site browser' }));
    const form = screen.getByRole('form', { name: 'Edit Site browser' });
    const origins = within(form).getByLabelText('Allowed browser origins');
    await user.type(origins, 'https://browser.example.com/news');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await within(form).findByText(/Enter origins such as https:\/\/news.example.com \(no path\)/);

    await user.clear(origins);
    await user.type(origins, 'https://browser.example.com, http://127.0.0.1:5173');
    await user.type(within(form).getByLabelText('Public base URL'), 'https://browser.example.com/');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await within(card).findByText(
      'Browsers may read from https://browser.example.com, http://127.0.0.1:5173',
    );
    const site = await api.db
      .selectFrom('sites')
      .select(['allowed_origins', 'public_base_url'])
      .where('slug', '=', 'browser')
      .executeTakeFirstOrThrow();
    expect(site).toEqual({
      allowed_origins: ['https://browser.example.com', 'http://127.0.0.1:5173'],
      public_base_url: 'https://browser.example.com',
    });
  });

  it('asks before deleting a site and says what happens to its articles', async () => {
    await insertSite(api.db, 'closing');
    await openSites();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete Site closing' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete Site closing?' });
    expect(dialog.textContent).toContain('API keys stop working');
    await user.click(within(dialog).getByRole('button', { name: 'Delete site' }));
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Site closing' })).toBeNull());
    await waitFor(async () =>
      expect(await api.db.selectFrom('sites').select('id').where('slug', '=', 'closing').execute()).toEqual(
        [],
      ),
    );
  });
});
