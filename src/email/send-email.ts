/**
 * Outgoing mail through SMTP (docs/accounts.md). A mail is handed to the background tasks, so it leaves after
 * the change that caused it has committed and the answer has gone; the requester never waits for the
 * SMTP server and never learns whether it answered. A failure is logged and kept as the last failure in
 * `_cms_settings` (shared by every instance), which admins read in `GET /health`.
 */
import type { Transporter } from 'nodemailer';
import type { CMS } from '../cms.ts';
import { readSetting, writeSetting } from '../db/settings.ts';

export type Email = { to: string; subject: string; text: string; html: string };
export type EmailFailure = { at: string; subject: string; error: string };

const FAILURE_SETTING = 'email.lastFailure';
const transports = new WeakMap<CMS, Promise<Transporter>>();

/** True when mail can be sent; without it the admin offers links to copy. */
export const emailConfigured = (cms: CMS) => cms.config.email !== null;

function transportOf(cms: CMS): Promise<Transporter> {
  let transport = transports.get(cms);
  if (!transport) {
    // Loaded on the first mail, so an instance that never sends one does not pay for it at start.
    transport = import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport(cms.config.email!.transport),
    );
    transports.set(cms, transport);
    cms.closers.push(async () => (await transport!).close());
  }
  return transport;
}

/** Queues `email` to be sent after the answer; does nothing when email is not configured. */
export function sendEmailLater(cms: CMS, email: Email): void {
  const settings = cms.config.email;
  if (!settings) return;
  cms.background.run('sending an email', async () => {
    try {
      const transport = await transportOf(cms);
      await transport.sendMail({
        from: settings.from,
        to: email.to,
        subject: email.subject,
        text: email.text,
        html: email.html,
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      cms.log.error(`email "${email.subject}" could not be sent: ${message}`);
      await recordFailure(cms, { at: new Date(cms.clock.now()).toISOString(), subject: email.subject, error: message });
    }
  });
}

async function recordFailure(cms: CMS, failure: EmailFailure): Promise<void> {
  await writeSetting(cms.store, FAILURE_SETTING, JSON.stringify(failure));
}

export async function lastEmailFailure(cms: CMS): Promise<EmailFailure | null> {
  const value = await readSetting(cms.store, FAILURE_SETTING);
  return value !== null ? (JSON.parse(value) as EmailFailure) : null;
}
