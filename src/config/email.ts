/** The `email` setting (docs/accounts.md): an SMTP URL and a sender, from the config or CMS_SMTP_URL / CMS_EMAIL_FROM (env wins). */
import type { SanitizedConfig, UserConfig } from './types.ts';

type Env = Record<string, string | undefined>;

export function sanitizeEmail(
  input: UserConfig['email'],
  env: Env,
  fail: (key: string, message: string) => never,
): SanitizedConfig['email'] {
  if (input !== undefined && (input === null || typeof input !== 'object'))
    fail('email', 'must be an object { transport, from }');
  const transport = env.CMS_SMTP_URL || input?.transport;
  const from = env.CMS_EMAIL_FROM || input?.from;
  if (!transport) return null;
  let url: URL | null = null;
  try {
    url = new URL(transport);
  } catch {
    url = null;
  }
  // The URL may hold a password: the message names the setting, never the value.
  if (!url || (url.protocol !== 'smtp:' && url.protocol !== 'smtps:'))
    fail('email.transport', "must be a URL like 'smtp://user:pass@host:587' or 'smtps://…'");
  if (from !== undefined && (typeof from !== 'string' || !from.includes('@')))
    fail('email.from', "must be an address like 'Site <no-reply@example.com>'");
  const hosts = input?.allowedHosts ?? [];
  if (
    !Array.isArray(hosts) ||
    hosts.some((h) => typeof h !== 'string' || !/^([a-z0-9.-]+|\[[0-9a-f:.]+\])(:\d{1,5})?$/i.test(h))
  ) {
    fail('email.allowedHosts', "must be a list of hosts like ['cms.example.com', 'cms.example.com:8443']");
  }
  return {
    transport,
    from: from ?? `no-reply@${url!.hostname || 'localhost'}`,
    allowedHosts: hosts.map((h) => h.toLowerCase()),
  };
}
