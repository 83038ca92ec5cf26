import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createMailer, type Mailer } from './mailer';

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

/** The mailer of the dashboard routes (invitations, password resets), closed with the app. */
export const mailPlugin = fp(async (app: FastifyInstance) => {
  const mailer = createMailer(
    {
      smtpUrl: app.config.mail.smtpUrl,
      from: app.config.mail.from,
      production: app.config.env === 'production',
    },
    app.log,
  );
  app.decorate('mailer', mailer);
  app.addHook('onClose', async () => mailer.close());
});
