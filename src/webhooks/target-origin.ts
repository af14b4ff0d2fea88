/**
 * What logs may say about a webhook target: its origin (scheme, host, port). A target URL often carries its
 * receiver's secret in a path segment or a `?token=`, and logs travel further than the config does; the
 * full URL stays in the config and in the admins' delivery list (docs/webhooks.md).
 */

/** `https://hooks.example/t/SECRET?token=…` → `https://hooks.example`. */
export function targetOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '(an invalid URL)';
  }
}

/** A message with the target's URL, wherever it appears, replaced by its origin. */
export function withoutTargetPath(message: string, url: string): string {
  return url ? message.replaceAll(url, targetOrigin(url)) : message;
}
