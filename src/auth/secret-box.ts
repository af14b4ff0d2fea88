/**
 * Encrypts small secrets that must be read back (TOTP secrets) with AES-256-GCM under a key derived from
 * the instance secret, so a copy of the database alone does not hand out second factors.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const keyOf = (instanceSecret: string) =>
  createHash('sha256').update('cms secret-box v1\0').update(instanceSecret).digest();

export function sealSecret(instanceSecret: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(instanceSecret), iv);
  const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), sealed.toString('base64url')].join(
    '.',
  );
}

/** The plain secret, or null when it was sealed under another instance secret (or altered). */
export function openSecret(instanceSecret: string, box: string): string | null {
  const [version, iv, tag, sealed] = box.split('.');
  if (version !== 'v1' || !iv || !tag || !sealed) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(instanceSecret), Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
