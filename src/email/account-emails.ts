/** The account mails (password reset, invitation): plain text and simple HTML, links already absolute. */
import type { Email } from './send-email.ts';

export const PRODUCT_NAME = 'CMS';

const escapeHTML = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function compose(to: string, subject: string, lines: string[], link: string, action: string): Email {
  const text = [...lines, '', link, ''].join('\n');
  const html =
    `<!doctype html><html><body style="font-family:sans-serif">${lines.map((l) => `<p>${escapeHTML(l)}</p>`).join('')}` +
    `<p><a href="${escapeHTML(link)}">${escapeHTML(action)}</a></p><p style="color:#666">${escapeHTML(link)}</p></body></html>`;
  return { to, subject, text, html };
}

export function resetPasswordEmail(to: string, link: string): Email {
  return compose(
    to,
    `Reset your ${PRODUCT_NAME} password`,
    [
      `Someone asked to reset the password of ${to}.`,
      'Open this link within one hour to choose a new password. If it was not you, ignore this mail: nothing changes.',
    ],
    link,
    'Choose a new password',
  );
}

export function invitationEmail(to: string, link: string, days: number): Email {
  return compose(
    to,
    `You are invited to ${PRODUCT_NAME}`,
    [`An account was made for ${to}.`, `Open this link within ${days} days to choose your password.`],
    link,
    'Choose your password',
  );
}
