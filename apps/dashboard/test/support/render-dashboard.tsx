import { render } from '@testing-library/react';
import { App, createDashboard } from '../../src/app/app';
import { setCsrfToken } from '../../src/lib/csrf-token';

/** The whole dashboard (real router, query cache and toasts) opened at `path`, as a browser would. */
export function renderDashboard(path: string) {
  window.history.replaceState(null, '', path);
  setCsrfToken(null);
  const dashboard = createDashboard();
  const view = render(<App dashboard={dashboard} />);
  return { ...view, dashboard, path: () => window.location.pathname + window.location.search };
}
