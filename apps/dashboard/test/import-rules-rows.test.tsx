import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { setUpDashboardApi } from './support/dashboard-test-app';
import { errorOf } from './support/field-error';
import { renderDashboard } from './support/render-dashboard';

// The import rules form's rows and numbers (import-rules.test.tsx saves a full set and shows a refused rule).

const api = await setUpDashboardApi();

async function openRules(rules: Record<string, unknown>) {
  const publisher = await api.insertPublisher({ name: 'Rules desk', approved: true });
  await api.db
    .updateTable('publishers')
    .set({ import_rules: JSON.stringify(rules) })
    .where('id', '=', publisher.publisherId)
    .execute();
  const admin = await api.insertAdmin();
  await api.signIn(admin.email);
  renderDashboard(`/publishers/${publisher.publisherId}`);
  await screen.findByRole('heading', { name: 'Rules desk', level: 1 });
  const form = within(screen.getByRole('form', { name: 'Import rules' }));
  return { publisherId: publisher.publisherId, form, user: userEvent.setup() };
}

const rulesOf = async (publisherId: string) =>
  (
    await api.db
      .selectFrom('publishers')
      .select('import_rules')
      .where('id', '=', publisherId)
      .executeTakeFirstOrThrow()
  ).import_rules as Record<string, unknown>;

describe('import rules form', () => {
  it('shows the saved rules, removes a mapping, leaves empty rows out and clears the cap per fetch', async () => {
    const { publisherId, form, user } = await openRules({
      tagMappings: [
        { from: 'Soccer', to: 'Football' },
        { from: 'Promo', to: null },
      ],
      maxNewItemsPerFetch: 25,
      defaultCategory: 'News',
    });
    expect((form.getByLabelText('Feed category 1') as HTMLInputElement).value).toBe('Soccer');
    expect((form.getByLabelText('Our tag for feed category 1') as HTMLInputElement).value).toBe('Football');
    const dropped = form.getByLabelText('Our tag for feed category 2') as HTMLInputElement;
    expect(dropped.disabled).toBe(true);
    expect(dropped.placeholder).toBe('dropped');
    expect((form.getByLabelText('New items per fetch') as HTMLInputElement).value).toBe('25');

    await user.click(form.getByRole('button', { name: 'Remove mapping 1' }));
    expect((form.getByLabelText('Feed category 1') as HTMLInputElement).value).toBe('Promo');
    await user.click(form.getByRole('button', { name: 'Add a mapping' }));
    await user.clear(form.getByLabelText('New items per fetch'));
    await user.clear(form.getByLabelText('Default category'));
    await user.click(form.getByRole('button', { name: 'Save rules' }));
    await screen.findByText('Import rules saved');

    const saved = await rulesOf(publisherId);
    expect(saved.tagMappings).toEqual([{ from: 'Promo', to: null }]);
    expect(saved.maxNewItemsPerFetch).toBeNull();
    expect(saved.defaultCategory).toBeNull();
  });

  it('un-drops a mapping: its tag can be typed again', async () => {
    const { publisherId, form, user } = await openRules({ tagMappings: [{ from: 'Promo', to: null }] });
    await user.click(form.getByLabelText('Drop'));
    const tag = form.getByLabelText('Our tag for feed category 1') as HTMLInputElement;
    expect(tag.disabled).toBe(false);
    await user.type(tag, 'Offers');
    await user.click(form.getByRole('button', { name: 'Save rules' }));
    await screen.findByText('Import rules saved');
    expect((await rulesOf(publisherId)).tagMappings).toEqual([{ from: 'Promo', to: 'Offers' }]);
  });

  it('refuses a keyword longer than the API takes before sending, at its field, in words', async () => {
    const { publisherId, form, user } = await openRules({ includeKeywords: ['council'] });
    const include = form.getByLabelText('Import only items with');
    await user.click(include);
    await user.paste(`, ${'k'.repeat(201)}`);
    await user.click(form.getByRole('button', { name: 'Save rules' }));
    await waitFor(() =>
      expect(errorOf('Import only items with', form)).toBe('Must be at most 200 characters'),
    );
    expect(document.activeElement).toBe(include);
    expect((await rulesOf(publisherId)).includeKeywords).toEqual(['council']);
  });
});
