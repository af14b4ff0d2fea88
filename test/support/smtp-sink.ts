/**
 * A real SMTP server on loopback for the mail tests: smtp-server (npm, dev dependency) accepting every
 * message without authentication or TLS, each parsed by mailparser so tests read the subject, the
 * addresses, the text and the HTML as a mail client would.
 */
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';

export type ReceivedMail = { from: string; to: string; subject: string; text: string; html: string };
export type SmtpSink = {
  url: string;
  mails: ReceivedMail[];
  /** Resolves with the next mail to `to` (already received or arriving within `timeoutMs`). */
  next(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  stop(): Promise<void>;
};

export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then((parsed) => {
        const addresses = (a: unknown) =>
          (Array.isArray(a) ? a : a ? [a] : []).map((x: { text: string }) => x.text).join(', ');
        mails.push({
          from: addresses(parsed.from),
          to: addresses(parsed.to),
          subject: parsed.subject ?? '',
          text: parsed.text ?? '',
          html: typeof parsed.html === 'string' ? parsed.html : '',
        });
        for (const wake of waiters.splice(0)) wake();
        callback();
      }, callback);
    },
  });
  const port = await new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.server.address() as { port: number }).port)),
  );
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async next(to, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mail = mails.find((m) => !taken.has(m) && m.to.includes(to));
        if (mail) {
          taken.add(mail);
          return mail;
        }
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The reset or invitation link in a mail's text. */
export function linkIn(mail: ReceivedMail): string {
  const match = /https?:\/\/\S+reset-password\?token=[\w%-]+/.exec(mail.text);
  if (!match) throw new Error(`no link in mail: ${mail.text}`);
  return match[0];
}

export const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
