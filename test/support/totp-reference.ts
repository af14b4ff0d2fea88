/**
 * An independent TOTP generator for the tests (RFC 6238 with RFC 4226's truncation), written apart from
 * src/auth/totp.ts on WebCrypto's HMAC, and itself checked against RFC 6238's published test vectors.
 */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function fromBase32(text: string): Uint8Array<ArrayBuffer> {
  const bits = [...text.replace(/=+$/, '').toUpperCase()]
    .map((c) => ALPHABET.indexOf(c).toString(2).padStart(5, '0'))
    .join('');
  const bytes = new Uint8Array(Math.floor(bits.length / 8));
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(bits.slice(i * 8, i * 8 + 8), 2);
  return bytes;
}

export async function referenceTOTP(
  key: Uint8Array<ArrayBuffer>,
  unixSeconds: number,
  options: { digits?: number; hash?: 'SHA-1' | 'SHA-256' | 'SHA-512' } = {},
): Promise<string> {
  const { digits = 6, hash = 'SHA-1' } = options;
  const counter = Math.floor(unixSeconds / 30);
  const message = new DataView(new ArrayBuffer(8));
  message.setUint32(0, Math.floor(counter / 2 ** 32));
  message.setUint32(4, counter >>> 0);
  const cryptoKey = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', cryptoKey, message.buffer));
  const offset = mac[mac.length - 1] & 15;
  const value = ((mac[offset] & 127) << 24) | (mac[offset + 1] << 16) | (mac[offset + 2] << 8) | mac[offset + 3];
  return String(value % 10 ** digits).padStart(digits, '0');
}

/** RFC 6238 Appendix B: [unix time, SHA-1, SHA-256, SHA-512] codes of 8 digits. */
export const RFC6238_VECTORS: [number, string, string, string][] = [
  [59, '94287082', '46119246', '90693936'],
  [1111111109, '07081804', '68084774', '25091201'],
  [1111111111, '14050471', '67062674', '99943326'],
  [1234567890, '89005924', '91819424', '93441116'],
  [2000000000, '69279037', '90698825', '38618901'],
  [20000000000, '65353130', '77737706', '47863826'],
];
export const RFC6238_KEYS = {
  'SHA-1': new TextEncoder().encode('12345678901234567890'),
  'SHA-256': new TextEncoder().encode('12345678901234567890123456789012'),
  'SHA-512': new TextEncoder().encode('1234567890123456789012345678901234567890123456789012345678901234'),
};
