import { describe, expect, it } from 'vitest';
import { loadApiConfig, loadWorkerConfig } from '../src';

const api = {
  PORT: '3000',
  API_KEY: 'k'.repeat(24),
  JWT_SECRET: 's'.repeat(48),
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/newsroom',
};
const worker = { DATABASE_URL: api.DATABASE_URL };
const token = 'metrics-token-0123456789';

function messageOf(load: () => unknown): string {
  try {
    load();
  } catch (error) {
    return (error as Error).message;
  }
  return 'no error';
}

describe('metrics configuration', () => {
  it('serves no metrics unless METRICS_TOKEN is set', () => {
    expect(loadApiConfig(api).metrics).toEqual({ token: undefined });
    expect(loadWorkerConfig(worker).metrics).toEqual({
      token: undefined,
      port: undefined,
      host: '127.0.0.1',
    });
  });

  it('reads the token, and the worker listener port and address', () => {
    expect(loadApiConfig({ ...api, METRICS_TOKEN: token }).metrics).toEqual({ token });
    const config = loadWorkerConfig({
      ...worker,
      METRICS_TOKEN: token,
      WORKER_METRICS_PORT: '9464',
      WORKER_METRICS_HOST: '0.0.0.0',
    });
    expect(config.metrics).toEqual({ token, port: 9464, host: '0.0.0.0' });
  });

  it('refuses a short token or one with spaces, without printing it', () => {
    for (const bad of ['short-token', 'has a space in the middle of it']) {
      expect(() => loadApiConfig({ ...api, METRICS_TOKEN: bad })).toThrow(/METRICS_TOKEN is invalid/);
      const message = messageOf(() => loadWorkerConfig({ ...worker, METRICS_TOKEN: bad }));
      expect(message).toMatch(/METRICS_TOKEN is invalid/);
      expect(message).not.toContain(bad);
    }
  });

  it('names a bad WORKER_METRICS_PORT', () => {
    expect(() => loadWorkerConfig({ ...worker, WORKER_METRICS_PORT: '70000' })).toThrow(
      /WORKER_METRICS_PORT is invalid/,
    );
  });
});
