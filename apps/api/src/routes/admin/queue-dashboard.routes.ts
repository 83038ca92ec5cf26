import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import formbody from '@fastify/formbody';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  dashboardAdministrator,
  queueDashboardCookie,
  queueDashboardPath,
  requireDashboardAdministrator,
  secondsLeft,
} from '../../plugins/queue-dashboard-auth';
import { loginPage } from './queue-dashboard-login.page';

const LoginBodySchema = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 4096 }) },
  { additionalProperties: false },
);

/**
 * Bull Board at /admin/queues, administrators only. A browser opens it by POSTing a dashboard
 * token to /admin/queues/login (a form: nothing in the URL), which sets an HttpOnly, SameSite=Strict
 * cookie scoped to /admin/queues (Secure over https) and redirects to the board. Everything under
 * the board checks that cookie in one onRequest hook. Not mounted without a queue.
 */
export const queueDashboardRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const queue = app.feedImportQueue;
  if (!queue) return;
  await app.register(formbody);

  const hidden = { hide: true } as const;
  app.get(`${queueDashboardPath}/login`, { schema: hidden }, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(loginPage()),
  );

  app.post(
    `${queueDashboardPath}/login`,
    { schema: { ...hidden, body: LoginBodySchema } },
    async (request, reply) => {
      const { token } = request.body;
      if (!(await dashboardAdministrator(app, token))) {
        return reply
          .status(401)
          .type('text/html; charset=utf-8')
          .send(loginPage('That token is not a valid administrator token.'));
      }
      reply.setCookie(queueDashboardCookie, token, {
        path: queueDashboardPath,
        httpOnly: true,
        sameSite: 'strict',
        secure: request.protocol === 'https',
        maxAge: secondsLeft(app, token),
      });
      return reply.redirect(queueDashboardPath, 303);
    },
  );

  app.post(`${queueDashboardPath}/logout`, { schema: hidden }, async (_request, reply) => {
    reply.clearCookie(queueDashboardCookie, { path: queueDashboardPath });
    return reply.redirect(`${queueDashboardPath}/login`, 303);
  });

  await app.register(async (board) => {
    board.addHook('onRequest', requireDashboardAdministrator);
    const serverAdapter = new FastifyAdapter().setBasePath(queueDashboardPath);
    createBullBoard({
      queues: [
        new BullMQAdapter(queue, {
          allowRetries: true, // completed jobs too (allowCompletedRetries defaults on)
          description: 'Hourly fan-out and per-publisher feed fetches',
        }),
      ],
      serverAdapter,
      options: { uiConfig: { boardTitle: 'Newsroom queues' } },
    });
    await board.register(serverAdapter.registerPlugin(), { prefix: queueDashboardPath });
  });
};
