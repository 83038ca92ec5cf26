import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { insertSite } from '../../api/test/support/content-fixtures';
import { setUpDashboardApi } from './support/dashboard-test-app';
import { errorOf } from './support/field-error';
import { renderDashboard } from './support/render-dashboard';

// The site and webhook forms on the form layer: what the browser refuses before sending, what the API
// refuses at a field, and the form starting again after a success.

const api = await setUpDashboardApi();
/** The requests that change something, the test's own sign-in left out. */
const writes = () =>
  api.api().calls.filter((call) => call.method !== 'GET' && call.url !== '/api/v1/auth/session');

async function open(path: string, heading: string) {
  const admin = await api.insertAdmin();
  await api.signIn(admin.email);
  renderDashboard(path);
  await screen.findByRole('heading', { name: heading, level: 1 });
  return userEvent.setup();
}

describe('site forms', () => {
  it('refuses a malformed slug in the browser, in words, with the focus on it', async () => {
    const user = await open('/sites', 'Sites');
    const form = within(screen.getByRole('form', { name: 'New site' }));
    await user.type(form.getByLabelText('Site name'), 'Metro');
    await user.clear(form.getByLabelText('Slug'));
    await user.type(form.getByLabelText('Slug'), 'Not A Slug');
    await user.click(form.getByRole('button', { name: 'Create site' }));

    await waitFor(() =>
      expect(errorOf('Slug', form)).toBe(
        'Use lower-case letters, digits and single dashes, such as metro-news',
      ),
    );
    expect(errorOf('Site name', form)).toBeNull();
    expect(document.activeElement).toBe(form.getByLabelText('Slug'));
    expect(writes()).toEqual([]);
  });

  it('puts a taken slug at the slug field, then starts again empty after creating another', async () => {
    await insertSite(api.db, 'harbour');
    const user = await open('/sites', 'Sites');
    const form = within(screen.getByRole('form', { name: 'New site' }));
    await user.type(form.getByLabelText('Site name'), 'Harbour');
    await user.click(form.getByRole('button', { name: 'Create site' }));
    await waitFor(() => expect(errorOf('Slug', form)).toMatch(/already used/));

    // A typed slug is no longer suggested from the name.
    await user.clear(form.getByLabelText('Slug'));
    await user.type(form.getByLabelText('Slug'), 'harbour-two');
    await user.type(form.getByLabelText('Site name'), ' Two');
    expect((form.getByLabelText('Slug') as HTMLInputElement).value).toBe('harbour-two');
    await user.click(form.getByRole('button', { name: 'Create site' }));
    await screen.findByRole('heading', { name: 'Harbour Two', level: 2 });
    expect((form.getByLabelText('Site name') as HTMLInputElement).value).toBe('');
    expect(errorOf('Slug', form)).toBeNull();
    // Suggesting starts again with the empty form.
    await user.type(form.getByLabelText('Site name'), 'Bay');
    expect((form.getByLabelText('Slug') as HTMLInputElement).value).toBe('bay');
  });

  it('refuses an empty language in the browser, in words, and leaves the edit open; Cancel closes it unsaved', async () => {
    await insertSite(api.db, 'valley');
    const user = await open('/sites', 'Sites');
    await user.click(await screen.findByRole('button', { name: 'Edit Site valley' }));
    const form = within(screen.getByRole('form', { name: 'Edit Site valley' }));
    await user.clear(form.getByLabelText('Language'));
    await user.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(errorOf('Language', form)).toBe('Enter a language code such as en or pt-BR'));
    expect(writes()).toEqual([]);

    await user.click(form.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('form', { name: 'Edit Site valley' })).toBeNull();
    const stored = await api.db
      .selectFrom('sites')
      .select('language')
      .where('slug', '=', 'valley')
      .executeTakeFirstOrThrow();
    expect(stored.language).not.toBe('');
  });
});

describe('webhook forms', () => {
  it('asks for at least one event in the browser, with the focus on the first', async () => {
    const user = await open('/webhooks', 'Webhooks');
    const form = within(screen.getByRole('form', { name: 'New endpoint' }));
    await user.type(form.getByLabelText('URL'), 'https://hooks.example.com/a');
    for (const box of form.getAllByRole('checkbox').filter((el) => el.closest('.webhook-events'))) {
      await user.click(box);
    }
    await user.click(form.getByRole('button', { name: 'Register endpoint' }));

    expect(await form.findByText('Choose at least one')).toBeTruthy();
    expect(document.activeElement).toBe(form.getByLabelText(/^article\.published/));
    expect(writes()).toEqual([]);
  });

  it('registers an endpoint scoped to a site, starts again with every event, and edits its events', async () => {
    const siteId = await insertSite(api.db, 'metro');
    const user = await open('/webhooks', 'Webhooks');
    const form = within(screen.getByRole('form', { name: 'New endpoint' }));
    await user.type(form.getByLabelText('URL'), 'https://hooks.example.com/metro');
    await user.click(form.getByLabelText(/^article\.deleted/));
    await form.findByRole('option', { name: 'Site metro (metro)' });
    await user.selectOptions(form.getByLabelText('Site scope'), 'metro');
    await user.click(form.getByRole('button', { name: 'Register endpoint' }));
    await screen.findByText('Endpoint https://hooks.example.com/metro registered');

    const stored = await api.db
      .selectFrom('webhook_endpoints')
      .select(['id', 'events', 'site_id'])
      .where('url', '=', 'https://hooks.example.com/metro')
      .executeTakeFirstOrThrow();
    expect(stored.events).not.toContain('article.deleted');
    expect(stored.site_id).toBe(siteId);
    expect((form.getByLabelText('URL') as HTMLInputElement).value).toBe('');
    expect((form.getByLabelText(/^article\.deleted/) as HTMLInputElement).checked).toBe(true);
    expect((form.getByLabelText('Site scope') as HTMLSelectElement).value).toBe('');

    await user.click(form.getByRole('button', { name: 'I have stored the secret' }));
    await user.click(screen.getByRole('button', { name: 'Edit https://hooks.example.com/metro' }));
    const edit = within(screen.getByRole('form', { name: 'Edit https://hooks.example.com/metro' }));
    await user.click(edit.getByLabelText(/^article\.deleted/));
    await user.click(edit.getByRole('button', { name: 'Save' }));
    await screen.findByText('Endpoint saved');
    const edited = await api.db
      .selectFrom('webhook_endpoints')
      .select('events')
      .where('id', '=', stored.id)
      .executeTakeFirstOrThrow();
    expect(edited.events).toContain('article.deleted');
  });
});
