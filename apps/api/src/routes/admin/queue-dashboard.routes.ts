import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { noStore } from '../../plugins/no-store';
import { queueDashboardPath, requireDashboardAdministrator } from '../../plugins/queue-dashboard-auth';
import { adaptBoardPage, boardEnvironment, boardFonts } from './queue-dashboard-page';

/** What the board lists as a job's name: a fetch names its publisher ("fetch-feed · Daily Planet"). */
export function jobTitle(job: { name?: string; data?: { publisherName?: unknown } }): string {
  const name = job.name ?? '';
  const publisher = job.data?.publisherName;
  return typeof publisher === 'string' && publisher ? `${name} · ${publisher}` : name;
}

/**
 * Bull Board at /admin/queues, for administrators signed in to the dashboard: the same cookie session
 * as the API (docs/auth.md), checked by one onRequest hook on the board's own plugin context; no token
 * to paste. Retry works on failed and completed jobs (a completed fetch retried fetches afresh: see
 * docs/feed-ingestion.md). Not mounted without a queue.
 */
export const queueDashboardRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const queue = app.feedImportQueue;
  if (!queue) return;

  await app.register(async (board) => {
    // Its API answers list jobs (publishers, request ids) to signed-in administrators only: kept nowhere,
    // and set first, so the sign-in redirect carries it too.
    board.addHook('onRequest', noStore);
    board.addHook('onRequest', requireDashboardAdministrator);
    // The board's page (HTML) loses its web font from another host and gains a link back to the dashboard.
    board.addHook('onSend', async (_request, reply, payload) => {
      const type = reply.getHeader('content-type');
      const html = typeof type === 'string' && type.startsWith('text/html') && typeof payload === 'string';
      return html ? adaptBoardPage(payload) : payload;
    });
    const adapter = new BullMQAdapter(queue, {
      allowRetries: true, // completed jobs too (allowCompletedRetries defaults on)
      description: 'Hourly fan-out and per-publisher feed fetches',
    });
    adapter.setFormatter('name', jobTitle);
    const serverAdapter = new FastifyAdapter().setBasePath(queueDashboardPath);
    createBullBoard({
      queues: [adapter],
      serverAdapter,
      options: {
        uiConfig: { boardTitle: 'Newsroom queues', theme: boardFonts, environment: boardEnvironment },
      },
    });
    await board.register(serverAdapter.registerPlugin(), { prefix: queueDashboardPath });
  });
};
