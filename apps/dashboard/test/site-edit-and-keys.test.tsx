import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { insertSite } from '../../api/test/support/content-fixtures';
import { setUpDashboardApi } from './support/dashboard-test-app';
import { errorOf } from './support/field-error';
import { renderDashboard } from './support/render-dashboard';

// Editing a site (its slug's warning, clearing its domain) and naming a key, on the form layer.

const api = await setUpDashboardApi();
const stored = (slug: string) =>
  api.db.selectFrom('sites').selectAll().where('slug', '=', slug).executeTakeFirst();

async function openSites() {
  const admin = await api.insertAdmin();
  await api.signIn(admin.email);
  renderDashboard('/sites');
  await screen.findByRole('heading', { name: 'Sites', level: 1 });
  return userEvent.setup();
}

describe('editing a site', () => {
  it('warns while the slug differs from the saved one, and saves a new slug with the domain cleared', async () => {
    const id = await insertSite(api.db, 'ridge');
    await api.db.updateTable('sites').set({ domain: 'ridge.example.com' }).where('id', '=', id).execute();
    const user = await openSites();
    await user.click(await screen.findByRole('button', { name: 'Edit Site ridge' }));
    const form = within(screen.getByRole('form', { name: 'Edit Site ridge' }));
    const warning = 'Child sites that name this slug must change their configuration too.';
    expect((form.getByLabelText('Domain') as HTMLInputElement).value).toBe('ridge.example.com');
    expect(form.queryByText(warning)).toBeNull();

    await user.type(form.getByLabelText('Slug'), '-top');
    expect(form.getByText(warning)).toBeTruthy();
    await user.clear(form.getByLabelText('Domain'));
    await user.click(form.getByRole('button', { name: 'Save' }));
    await screen.findByText('Site “Site ridge” saved');
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Edit Site ridge' })).toBeNull());
    expect(await stored('ridge-top')).toMatchObject({ id, domain: null });
  });
});

describe('naming a key', () => {
  it('asks for a name before sending, at the field', async () => {
    await insertSite(api.db, 'cove');
    const user = await openSites();
    await user.click(await screen.findByRole('button', { name: 'API keys of Site cove' }));
    const form = within(await screen.findByRole('form', { name: 'New API key for Site cove' }));
    await user.click(form.getByRole('button', { name: 'Create key' }));
    await waitFor(() => expect(errorOf('Key name', form)).toBe('Required'));
    expect(document.activeElement).toBe(form.getByLabelText('Key name'));
    const site = await stored('cove');
    const keys = await api.db
      .selectFrom('site_api_keys')
      .select('id')
      .where('site_id', '=', site?.id ?? '')
      .execute();
    expect(keys).toEqual([]);
  });
});

describe('publishable keys', () => {
  it('creates a publishable key when asked, and lists its kind', async () => {
    await insertSite(api.db, 'bay');
    const user = await openSites();
    await user.click(await screen.findByRole('button', { name: 'API keys of Site bay' }));
    const form = within(await screen.findByRole('form', { name: 'New API key for Site bay' }));
    await user.type(form.getByLabelText('Key name'), 'front end');
    await user.click(form.getByRole('checkbox', { name: /Publishable/ }));
    await user.click(form.getByRole('button', { name: 'Create key' }));
    const shown = (await screen.findByLabelText('New API key')) as HTMLInputElement;
    expect(shown.value).toMatch(/^npk_/);
    await user.click(screen.getByRole('button', { name: 'I have stored the key' }));
    const row = (await screen.findByText('front end')).closest('tr') as HTMLElement;
    expect(within(row).getByText('Publishable')).toBeTruthy();
    const site = await stored('bay');
    const keys = await api.db
      .selectFrom('site_api_keys')
      .select('kind')
      .where('site_id', '=', site?.id ?? '')
      .execute();
    expect(keys).toEqual([{ kind: 'publishable' }]);
  });
});
