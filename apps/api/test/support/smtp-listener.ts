import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
}

/**
 * A real SMTP server on a free loopback port (smtp-server), keeping every message it receives, parsed. No
 * STARTTLS (loopback only), any or no authentication accepted. `next()` waits (bounded) for the next message.
 */
export async function startSmtpListener() {
  const received: ReceivedMail[] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const to = Array.isArray(mail.to) ? mail.to[0]?.text : mail.to?.text;
          received.push({ to: to ?? '', subject: mail.subject ?? '', text: mail.text ?? '' });
          for (const wake of waiters.splice(0)) wake();
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  let read = 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** The next message not yet read, waiting up to 5 s for it. */
    async next(): Promise<ReceivedMail> {
      const deadline = Date.now() + 5_000;
      while (received.length <= read) {
        if (Date.now() > deadline) throw new Error('no e-mail arrived within 5 s');
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
      return received[read++] as ReceivedMail;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The path and token of the one dashboard link in a message (`/invitation/…` or `/reset-password/…`). */
export function linkIn(mail: ReceivedMail): { path: string; token: string } {
  const match = mail.text.match(/https?:\/\/[^\s/]+(\/(?:invitation|reset-password)\/([A-Za-z0-9_-]+))/);
  if (!match) throw new Error(`no link in: ${mail.text}`);
  return { path: match[1] as string, token: match[2] as string };
}
