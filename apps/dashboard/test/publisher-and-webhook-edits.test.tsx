import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { insertSite } from '../../api/test/support/content-fixtures';
import { setUpDashboardApi } from './support/dashboard-test-app';
import { errorOf } from './support/field-error';
import { renderDashboard } from './support/render-dashboard';

// More paths through the create-publisher and webhook forms: what the browser refuses, what is kept typed.

const api = await setUpDashboardApi();

async function open(path: string, heading: string) {
  const admin = await api.insertAdmin();
  await api.signIn(admin.email);
  const view = renderDashboard(path);
  await screen.findByRole('heading', { name: heading, level: 1 });
  return { view, user: userEvent.setup() };
}

describe('create publisher', () => {
  it('refuses a blank name and a too-long password before sending, and keeps what was typed', async () => {
    const { view, user } = await open('/publishers/create', 'New publisher');
    await user.type(screen.getByLabelText('Name'), '   ');
    await user.type(screen.getByLabelText('E-mail'), 'desk@tide.example');
    await user.click(screen.getByLabelText('Password'));
    await user.paste('p'.repeat(73));
    await user.click(screen.getByRole('button', { name: 'Create publisher' }));

    await waitFor(() => expect(errorOf('Name')).toBe('Required'));
    expect(errorOf('Password')).toBe('Must be at most 72 characters');
    expect(errorOf('E-mail')).toBeNull();
    expect(document.activeElement).toBe(screen.getByLabelText('Name'));
    expect((screen.getByLabelText('E-mail') as HTMLInputElement).value).toBe('desk@tide.example');
    expect(view.path()).toBe('/publishers/create');
    const rows = await api.db.selectFrom('publishers').select('id').execute();
    expect(rows).toEqual([]);
  });
});

describe('edit webhook', () => {
  it('scopes an endpoint to a site and disables it; Cancel leaves another edit unsaved', async () => {
    const siteId = await insertSite(api.db, 'bay');
    const { user } = await open('/webhooks', 'Webhooks');
    const create = within(screen.getByRole('form', { name: 'New endpoint' }));
    await user.type(create.getByLabelText('URL'), 'https://hooks.example.com/bay');
    await user.click(create.getByRole('button', { name: 'Register endpoint' }));
    await user.click(await create.findByRole('button', { name: 'I have stored the secret' }));

    await user.click(await screen.findByRole('button', { name: 'Edit https://hooks.example.com/bay' }));
    const edit = within(screen.getByRole('form', { name: 'Edit https://hooks.example.com/bay' }));
    await edit.findByRole('option', { name: 'Site bay (bay)' });
    await user.selectOptions(edit.getByLabelText('Site scope'), 'bay');
    await user.click(edit.getByLabelText('Enabled: send events'));
    await user.click(edit.getByRole('button', { name: 'Save' }));
    await screen.findByText('Endpoint saved');
    const endpoint = () =>
      api.db
        .selectFrom('webhook_endpoints')
        .select(['site_id', 'enabled', 'events'])
        .where('url', '=', 'https://hooks.example.com/bay')
        .executeTakeFirstOrThrow();
    expect(await endpoint()).toMatchObject({ site_id: siteId, enabled: false });

    await user.click(await screen.findByRole('button', { name: 'Edit https://hooks.example.com/bay' }));
    const again = within(screen.getByRole('form', { name: 'Edit https://hooks.example.com/bay' }));
    expect((again.getByLabelText('Site scope') as HTMLSelectElement).value).toBe('bay');
    await user.click(again.getByLabelText(/^article\.published/));
    await user.click(again.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('form', { name: 'Edit https://hooks.example.com/bay' })).toBeNull();
    expect((await endpoint()).events).toContain('article.published');
  });
});
