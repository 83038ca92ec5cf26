import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import { HttpError } from '../http-error';

/** One e-mail the API sends: plain text, with the one link it is about. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  link: string;
}

export interface OutboxEntry extends MailMessage {
  sentAt: Date;
}

export interface Mailer {
  /** Throws 503 MAIL_NOT_CONFIGURED when mail cannot go out (production without SMTP_URL). */
  assertCanSend(): void;
  /** `sent` over SMTP, or `outbox`: kept for /dev/outbox (development without SMTP_URL). */
  send(message: MailMessage): Promise<'sent' | 'outbox'>;
  /** Development without SMTP: the last messages, newest first (empty otherwise). */
  outbox(): readonly OutboxEntry[];
  close(): void;
}

const outboxSize = 50;

/**
 * Outgoing mail: nodemailer over SMTP_URL (timeouts bounded); without it, in development, each message is
 * logged with its link and kept in memory for /dev/outbox, so invitations and resets work on a fresh clone;
 * in production without it, nothing can be sent and the routes that need mail answer 503 naming SMTP_URL.
 */
export function createMailer(
  options: { smtpUrl: string | undefined; from: string; production: boolean },
  log: FastifyBaseLogger,
): Mailer {
  const transport = options.smtpUrl
    ? nodemailer.createTransport(options.smtpUrl, {
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 20_000,
      })
    : undefined;
  const kept: OutboxEntry[] = [];
  const assertCanSend = () => {
    if (!transport && options.production)
      throw new HttpError(
        503,
        'MAIL_NOT_CONFIGURED',
        'E-mail is not configured: set SMTP_URL to send invitations and password resets',
      );
  };
  return {
    assertCanSend,
    async send(message) {
      assertCanSend();
      if (transport) {
        await transport.sendMail({
          from: options.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
        });
        return 'sent';
      }
      log.info(
        { to: message.to, subject: message.subject, link: message.link },
        'mail (development outbox, no SMTP_URL)',
      );
      kept.unshift({ ...message, sentAt: new Date() });
      kept.length = Math.min(kept.length, outboxSize);
      return 'outbox';
    },
    outbox: () => kept,
    close: () => transport?.close(),
  };
}
