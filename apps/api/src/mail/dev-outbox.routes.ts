import type { FastifyInstance } from 'fastify';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * GET /dev/outbox: development only (404 in production, and whenever SMTP_URL is set): the messages the API
 * would have mailed, newest first, with their links, so invitations and resets work on a fresh clone.
 */
export async function devOutboxRoutes(app: FastifyInstance) {
  // Not even registered in production or with real mail: the path is then whatever the dashboard answers (404).
  if (app.config.env === 'production' || app.config.mail.smtpUrl) return;
  app.get('/dev/outbox', { schema: { hide: true } }, async (_request, reply) => {
    const items = app.mailer
      .outbox()
      .map(
        (message) =>
          `<li><p><strong>${escapeHtml(message.subject)}</strong> to ${escapeHtml(message.to)} at ${message.sentAt.toISOString()}</p><p><a href="${escapeHtml(message.link)}">${escapeHtml(message.link)}</a></p><pre>${escapeHtml(message.text)}</pre></li>`,
      )
      .join('');
    return reply
      .type('text/html; charset=utf-8')
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Development outbox</title></head><body><main><h1>Development outbox</h1><p>Mail is not configured (SMTP_URL unset): these messages were not sent.</p><ol>${items || '<li>No messages yet.</li>'}</ol></main></body></html>`,
      );
  });
}
