// @vitest-environment node
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../src/app/query-client';
import { ApiError } from '../src/lib/api-error';

// The query cache's global rules, which every query module relies on: an ended session is reported
// once, a failed action is told unless its form shows the error (silent), and only outages are retried.

afterEach(() => vi.useRealTimers());

function client() {
  const events = { onSessionExpired: vi.fn(), onMutationError: vi.fn() };
  return { queryClient: createQueryClient(events), ...events };
}

const unauthorized = () => new ApiError(401, 'UNAUTHORIZED', 'Sign in');
const notFound = () => new ApiError(404, 'SITE_NOT_FOUND', 'No such site');

describe('queries', () => {
  it('report an ended session (401 UNAUTHORIZED) and are not retried', async () => {
    const { queryClient, onSessionExpired, onMutationError } = client();
    const queryFn = vi.fn(async () => {
      throw unauthorized();
    });
    await expect(queryClient.fetchQuery({ queryKey: ['sites', 'list'], queryFn })).rejects.toThrow('Sign in');
    expect(queryFn).toHaveBeenCalledTimes(1);
    expect(onSessionExpired).toHaveBeenCalledTimes(1);
    expect(onMutationError).not.toHaveBeenCalled();
  });

  it('take any other answer of the API as final: a 404 is not retried, and nobody is signed out', async () => {
    const { queryClient, onSessionExpired } = client();
    const queryFn = vi.fn(async () => {
      throw notFound();
    });
    await expect(queryClient.fetchQuery({ queryKey: ['sites', 'x'], queryFn })).rejects.toBeInstanceOf(
      ApiError,
    );
    expect(queryFn).toHaveBeenCalledTimes(1);
    expect(onSessionExpired).not.toHaveBeenCalled();
  });

  it('retry an outage (5xx, timeout, network) twice before failing', async () => {
    vi.useFakeTimers();
    const { queryClient } = client();
    const queryFn = vi.fn(async () => {
      throw new ApiError(0, 'TIMEOUT', 'The server did not answer in time. Try again.');
    });
    const answer = queryClient.fetchQuery({ queryKey: ['sites', 'list'], queryFn });
    const settled = answer.catch((error: unknown) => error);
    await vi.runAllTimersAsync();
    expect(await settled).toMatchObject({ code: 'TIMEOUT' });
    expect(queryFn).toHaveBeenCalledTimes(3);
  });

  it('stay fresh for 15 s by default and are not read again on window focus', () => {
    const { queryClient } = client();
    expect(queryClient.getDefaultOptions().queries).toMatchObject({
      staleTime: 15_000,
      refetchOnWindowFocus: false,
    });
  });
});

describe('mutations', () => {
  it('tell a failed action (a toast), and are never retried', async () => {
    const { queryClient, onMutationError } = client();
    const mutationFn = vi.fn(async () => {
      throw notFound();
    });
    const mutation = queryClient.getMutationCache().build(queryClient, { mutationFn });
    await expect(mutation.execute(undefined)).rejects.toBeInstanceOf(ApiError);
    expect(mutationFn).toHaveBeenCalledTimes(1);
    expect(onMutationError).toHaveBeenCalledWith(expect.objectContaining({ code: 'SITE_NOT_FOUND' }));
  });

  it('leave the error to the form when silent', async () => {
    const { queryClient, onMutationError } = client();
    const mutation = queryClient.getMutationCache().build(queryClient, {
      mutationFn: async () => {
        throw new ApiError(400, 'VALIDATION_ERROR', 'Invalid body');
      },
      meta: { silent: true },
    });
    await expect(mutation.execute(undefined)).rejects.toBeInstanceOf(ApiError);
    expect(onMutationError).not.toHaveBeenCalled();
  });

  it('report an ended session instead of telling the action failed', async () => {
    const { queryClient, onSessionExpired, onMutationError } = client();
    const mutation = queryClient.getMutationCache().build(queryClient, {
      mutationFn: async () => {
        throw unauthorized();
      },
    });
    await expect(mutation.execute(undefined)).rejects.toBeInstanceOf(ApiError);
    expect(onSessionExpired).toHaveBeenCalledTimes(1);
    expect(onMutationError).not.toHaveBeenCalled();
  });
});
