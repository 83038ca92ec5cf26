import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { setUpDashboardApi } from './support/dashboard-test-app';
import { renderDashboard } from './support/render-dashboard';
import { endpointWithFailedDelivery } from './support/webhook-fixtures';

// Private addresses refused, as in production (the end-to-end test allows loopback for its receiver).
const api = await setUpDashboardApi({ FEED_ALLOW_PRIVATE_ADDRESSES: 'false' });

async function openWebhooks() {
  const admin = await api.insertAdmin();
  await api.signIn(admin.email);
  renderDashboard('/webhooks');
  await screen.findByRole('heading', { name: 'Webhooks', level: 1 });
}

describe('webhooks', () => {
  it('refuses a private URL at the field, then shows the new secret once and lists the endpoint without it', async () => {
    await openWebhooks();
    await screen.findByText('No endpoints yet. Register the first one above.');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('URL'), 'http://10.0.0.5/hook');
    await user.click(screen.getByRole('button', { name: 'Register endpoint' }));
    await screen.findByText('The webhook URL points to a private, local or reserved network address');
    expect(screen.getByLabelText('URL').getAttribute('aria-invalid')).toBe('true');

    await user.clear(screen.getByLabelText('URL'));
    await user.type(screen.getByLabelText('URL'), 'https://hooks.example.com/newsroom');
    await user.click(screen.getByLabelText(/^publisher\.feed_failed/));
    await user.click(screen.getByRole('button', { name: 'Register endpoint' }));

    const notice = (await screen.findByRole('heading', { name: 'Copy the signing secret now' })).closest(
      'section',
    ) as HTMLElement;
    expect(notice.textContent).toContain('You will not see it again');
    const secret = (within(notice).getByLabelText('Signing secret') as HTMLInputElement).value;
    expect(secret).toMatch(/^whsec_/);
    await user.click(within(notice).getByRole('button', { name: 'Copy secret' }));
    await within(notice).findByText('Copied to the clipboard.');
    expect(await navigator.clipboard.readText()).toBe(secret);

    const card = (
      await screen.findByRole('heading', { name: 'https://hooks.example.com/newsroom', level: 2 })
    ).closest('li') as HTMLElement;
    expect(card.textContent).toContain('The whole network');
    expect(card.textContent).not.toContain('publisher.feed_failed');
    await user.click(within(notice).getByRole('button', { name: 'I have stored the secret' }));
    await waitFor(() => expect(screen.queryByLabelText('Signing secret')).toBeNull());
    expect(document.body.innerHTML).not.toContain(secret);
    const stored = await api.db
      .selectFrom('webhook_endpoints')
      .select(['secret', 'events'])
      .where('url', '=', 'https://hooks.example.com/newsroom')
      .execute();
    expect(stored).toEqual([
      {
        secret,
        events: [
          'article.published',
          'article.updated',
          'article.unpublished',
          'article.deleted',
          'article.corrected',
        ],
      },
    ]);
  });

  it('shows the delivery log and sends a delivery again', async () => {
    const { eventId, deliveryId } = await endpointWithFailedDelivery(api.db, 'https://log.example.com/hook');
    await openWebhooks();
    const user = userEvent.setup();
    await user.click(
      await screen.findByRole('button', { name: 'Delivery log of https://log.example.com/hook' }),
    );
    const row = (await screen.findByText(eventId)).closest('tr') as HTMLElement;
    expect(within(row).getByText('failed')).toBeTruthy();
    expect(row.textContent).toContain('500 · 42 ms');
    expect(row.textContent).toContain('the receiver answered 500');
    expect(screen.getByText('1 delivery')).toBeTruthy();

    const toggle = within(row).getByRole('button', { name: `Attempts of article.published ${eventId}` });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await user.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const attempts = await screen.findByRole('table', { name: `Attempts of ${eventId}, oldest first` });
    const [first, second] = within(attempts).getAllByRole('row').slice(1);
    expect(first?.textContent).toContain('503 · 40 ms');
    expect(first?.textContent).toContain('HTTP 503');
    expect(first?.textContent).toContain('upstream busy');
    const nextAttempt = (row?: HTMLElement) => row && within(row).getAllByRole('cell')[4]?.textContent;
    expect(nextAttempt(first)).not.toBe('—');
    expect(nextAttempt(second)).toBe('—');
    expect(second?.textContent).toContain('No answer · 5000 ms');
    expect(second?.textContent).toContain('no answer within 5000 ms');
    await user.click(toggle);
    await waitFor(() =>
      expect(screen.queryByRole('table', { name: `Attempts of ${eventId}, oldest first` })).toBeNull(),
    );

    await user.click(within(row).getByRole('button', { name: `Send again article.published ${eventId}` }));
    await within(row).findByText('pending');
    const stored = await api.db
      .selectFrom('webhook_deliveries')
      .select(['status', 'attempt_limit'])
      .where('id', '=', deliveryId)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ status: 'pending', attempt_limit: 9 });
  });

  it('shows why the system disabled an endpoint, and re-enables it', async () => {
    const { endpoint } = await endpointWithFailedDelivery(api.db, 'https://gone.example.com/hook');
    await api.db
      .updateTable('webhook_endpoints')
      .set({ enabled: false, disabled_reason: 'the receiver answered 410 Gone', disabled_at: new Date() })
      .where('id', '=', endpoint.id)
      .execute();
    await openWebhooks();
    const card = (
      await screen.findByRole('heading', { name: 'https://gone.example.com/hook', level: 2 })
    ).closest('li') as HTMLElement;
    within(card).getByText('disabled');
    within(card).getByText(/the receiver answered 410 Gone/);
    const user = userEvent.setup();
    await user.click(within(card).getByRole('button', { name: 'Edit https://gone.example.com/hook' }));
    await user.click(within(card).getByLabelText('Enabled: send events'));
    await user.click(within(card).getByRole('button', { name: 'Save' }));
    await within(card).findByText('enabled');
    expect(card.textContent).not.toContain('410 Gone');
  });

  it('rotates the secret: the new one shown once, both signing for 24 hours; deletes after confirmation', async () => {
    await endpointWithFailedDelivery(api.db, 'https://rotate.example.com/hook');
    await openWebhooks();
    const user = userEvent.setup();
    await user.click(
      await screen.findByRole('button', { name: 'Rotate secret of https://rotate.example.com/hook' }),
    );
    const notice = (await screen.findByRole('heading', { name: 'Copy the new signing secret now' })).closest(
      'section',
    ) as HTMLElement;
    expect(notice.textContent).toContain('signed with both the new and the previous secret');
    const secret = (within(notice).getByLabelText('Signing secret') as HTMLInputElement).value;
    const stored = await api.db
      .selectFrom('webhook_endpoints')
      .select('secret')
      .where('url', '=', 'https://rotate.example.com/hook')
      .executeTakeFirstOrThrow();
    expect(stored.secret).toBe(secret);
    await user.click(within(notice).getByRole('button', { name: 'I have stored the secret' }));

    await user.click(screen.getByRole('button', { name: 'Delete https://rotate.example.com/hook' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete this endpoint?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete endpoint' }));
    await waitFor(() =>
      expect(screen.queryByRole('heading', { name: 'https://rotate.example.com/hook' })).toBeNull(),
    );
  });
});
