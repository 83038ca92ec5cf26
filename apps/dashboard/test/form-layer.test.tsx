import { QueryClient, QueryClientProvider, type UseQueryResult, useMutation } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FormError, SubmitRow } from '../src/components/form/form-error';
import { FormPasswordField, FormTextField } from '../src/components/form/form-fields';
import { useApiForm } from '../src/components/form/use-api-form';
import { SiteCheckboxes, type SiteChoices } from '../src/components/site-checkboxes';
import { ApiError } from '../src/lib/api-error';

// The form layer alone (components/form/): a small form of its own, its request answered by the test.

afterEach(cleanup);

type Send = (body: { name: string; email: string; password: string }) => Promise<{ id: string }>;

function Harness({ send, onSaved }: { send: Send; onSaved?(id: string): void }) {
  const { form, onSubmit, busy, formError } = useApiForm({
    defaultValues: { name: '', email: '', password: '' },
    toBody: ({ name, email, password }) => ({ name: name.trim(), email: email.trim(), password }),
    schema: 'createPublisher',
    mutation: useMutation({ mutationFn: send }),
    codeFields: { EMAIL_TAKEN: 'email' },
    onSuccess: (saved, _values, reset) => {
      reset();
      onSaved?.(saved.id);
    },
  });
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Harness">
      <FormError message={formError} />
      <FormTextField control={form.control} name="name" label="Name" />
      <FormTextField control={form.control} name="email" label="E-mail" type="email" />
      <FormPasswordField control={form.control} name="password" label="Password" />
      <SubmitRow label="Send" busy={busy} />
    </form>
  );
}

function renderHarness(send: Send, onSaved?: (id: string) => void) {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <Harness send={send} {...(onSaved && { onSaved })} />
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

/** The message tied to a field by aria-describedby (the class field-error). */
function errorOf(label: string): string | null {
  const ids = (screen.getByLabelText(label).getAttribute('aria-describedby') ?? '').split(' ');
  const element = ids
    .map((id) => document.getElementById(id))
    .find((el) => el?.classList.contains('field-error'));
  return element?.textContent ?? null;
}

async function fillValid(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText('Name'), 'Daily Bugle');
  await user.type(screen.getByLabelText('E-mail'), 'desk@bugle.example');
  await user.type(screen.getByLabelText('Password'), 'long enough password');
}

describe('the form layer', () => {
  it("says in words what the API's schema refuses, sends nothing and focuses the first refused field", async () => {
    const send = vi.fn<Send>();
    const user = renderHarness(send);
    await user.type(screen.getByLabelText('E-mail'), 'not-an-address');
    await user.type(screen.getByLabelText('Password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Send' }));

    await waitFor(() => expect(errorOf('Name')).toBe('Required'));
    expect(errorOf('E-mail')).toBe('Enter an e-mail address such as name@example.com');
    expect(errorOf('Password')).toBe('Must be at least 12 characters');
    expect(screen.getByLabelText('Name').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(screen.getByLabelText('Name'));
    expect(send).not.toHaveBeenCalled();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("puts the API's 400 details on their fields, the first one focused", async () => {
    const send = vi
      .fn<Send>()
      .mockRejectedValue(
        new ApiError(400, 'VALIDATION_ERROR', 'Invalid body', [
          { path: 'body/password', message: 'must NOT have more than 72 characters' },
        ]),
      );
    const user = renderHarness(send);
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'Send' }));

    await waitFor(() => expect(errorOf('Password')).toBe('Must be at most 72 characters'));
    expect(errorOf('E-mail')).toBeNull();
    expect(document.activeElement).toBe(screen.getByLabelText('Password'));
    expect(send.mock.calls[0]?.[0]).toEqual({
      name: 'Daily Bugle',
      email: 'desk@bugle.example',
      password: 'long enough password',
    });
  });

  it("puts a field's error code on that field, and anything else above the form", async () => {
    const send = vi
      .fn<Send>()
      .mockRejectedValueOnce(new ApiError(409, 'EMAIL_TAKEN', 'This e-mail is already used.'))
      .mockRejectedValueOnce(new ApiError(0, 'NETWORK', 'Could not reach the server.'));
    const user = renderHarness(send);
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(errorOf('E-mail')).toBe('This e-mail is already used.'));
    expect(screen.queryByRole('alert')).toBeNull();

    // Submitting again clears the previous messages.
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Could not reach the server.');
    expect(errorOf('E-mail')).toBeNull();
  });

  it('keeps the submit button focused and busy while the request runs, and ignores presses meanwhile', async () => {
    let answer: (value: { id: string }) => void = () => {};
    const send = vi.fn<Send>(() => new Promise((resolve) => (answer = resolve)));
    const saved = vi.fn();
    const user = renderHarness(send, saved);
    await fillValid(user);
    const button = screen.getByRole('button', { name: 'Send' });
    await user.click(button);

    await waitFor(() => expect(button.getAttribute('aria-busy')).toBe('true'));
    expect(button.getAttribute('aria-disabled')).toBe('true');
    expect(button.hasAttribute('disabled')).toBe(false);
    expect(document.activeElement).toBe(button);
    await user.keyboard('{Enter}');
    await user.click(button);
    expect(send).toHaveBeenCalledTimes(1);

    answer({ id: 'p1' });
    await waitFor(() => expect(saved).toHaveBeenCalledWith('p1'));
    expect(button.getAttribute('aria-busy')).toBeNull();
  });

  it('starts again empty after a success when the form asks for it', async () => {
    const user = renderHarness(async () => ({ id: 'p2' }));
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe(''));
    expect((screen.getByLabelText('E-mail') as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText('Password') as HTMLInputElement).value).toBe('');
  });
});

function AskFirst({ send }: { send: Send }) {
  const [asking, setAsking] = useState(false);
  const api = useApiForm({
    defaultValues: { name: 'Bugle', email: 'desk@bugle.example', password: 'long enough password' },
    toBody: (values) => values,
    schema: 'createPublisher',
    mutation: useMutation({ mutationFn: send }),
  });
  return (
    <form onSubmit={api.handleSubmit(() => setAsking(true))} aria-label="Ask first">
      <SubmitRow label="Send" busy={api.busy} />
      {asking && (
        <button type="button" onClick={() => void api.send(api.form.getValues())}>
          Send anyway
        </button>
      )}
    </form>
  );
}

describe('a form that asks before sending', () => {
  it('sends nothing on submit, then the same values when the question is answered', async () => {
    const send = vi.fn<Send>(async () => ({ id: 'p3' }));
    render(
      <QueryClientProvider client={new QueryClient()}>
        <AskFirst send={send} />
      </QueryClientProvider>,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(send).not.toHaveBeenCalled();
    await user.click(await screen.findByRole('button', { name: 'Send anyway' }));
    await waitFor(() => expect(send).toHaveBeenCalledTimes(1));
    expect(send.mock.calls[0]?.[0]).toEqual({
      name: 'Bugle',
      email: 'desk@bugle.example',
      password: 'long enough password',
    });
  });
});

const sites = (state: 'pending' | 'error' | SiteChoices['data']) =>
  (state === 'pending'
    ? { isPending: true, isError: false }
    : state === 'error'
      ? { isPending: false, isError: true }
      : {
          isPending: false,
          isError: false,
          data: { data: state },
        }) as unknown as UseQueryResult<SiteChoices>;

function Checkboxes({ list, error }: { list: Parameters<typeof sites>[0]; error?: string }) {
  const [value, setValue] = useState<string[]>(['metro']);
  return (
    <>
      <SiteCheckboxes
        legend="Host sites"
        hint="Where it shows."
        sites={sites(list)}
        value={value}
        onChange={setValue}
        error={error}
      />
      <output>{value.join(',')}</output>
    </>
  );
}

describe('the site checkboxes', () => {
  const list = [
    { id: '1', slug: 'metro', name: 'Metro' },
    { id: '2', slug: 'harbour', name: 'Harbour' },
  ] as SiteChoices['data'];

  it('chooses sites by slug, kept in order, with the refusal under them', async () => {
    render(<Checkboxes list={list} error="Unknown site" />);
    const user = userEvent.setup();
    expect(screen.getByRole('group', { name: 'Host sites' })).toBeTruthy();
    expect((screen.getByLabelText('Metro') as HTMLInputElement).checked).toBe(true);
    await user.click(screen.getByLabelText('Harbour'));
    expect(screen.getByRole('status').textContent).toBe('harbour,metro');
    await user.click(screen.getByLabelText('Metro'));
    expect(screen.getByRole('status').textContent).toBe('harbour');
    expect(screen.getByText('Unknown site').className).toBe('field-error');
  });

  it('says when the list loads, fails or is empty', () => {
    const { rerender } = render(<Checkboxes list="pending" />);
    expect(screen.getByText('Loading sites…')).toBeTruthy();
    rerender(<Checkboxes list="error" />);
    expect(screen.getByText('The site list could not be loaded.')).toBeTruthy();
    rerender(<Checkboxes list={[]} />);
    expect(screen.getByText('No child sites exist yet.')).toBeTruthy();
  });
});
