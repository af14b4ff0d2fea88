/**
 * Password hashing with scrypt from node:crypto. The cost parameters are stored with each hash
 * (`scrypt$N$r$p$salt$hash`), so they can be raised later without breaking existing users.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

type ScryptCost = { N: number; r: number; p: number };

/** The cost of every new hash: 32 MiB of memory and about a tenth of a second of one core. */
export const SCRYPT_COST: ScryptCost = { N: 2 ** 15, r: 8, p: 1 };
let cost = SCRYPT_COST;

/**
 * Sets the cost of the hashes this process makes from now on, for test suites only (as Rails and Devise
 * lower bcrypt's in tests): a suite that registers and logs in thousands of users otherwise spends most of
 * its CPU in scrypt. Each hash keeps its own parameters, so hashes made at either cost verify anywhere.
 * Nothing in the server calls it; `cms` always hashes at SCRYPT_COST.
 */
export function setPasswordHashCost(next: ScryptCost): void {
  cost = next;
  dummyHash = undefined;
}
const KEY_LENGTH = 64;
export const MIN_PASSWORD_LENGTH = 8;

function derive(password: string, salt: Buffer, N: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { N, r, p, maxmem: 256 * N * r }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const { N, r, p } = cost;
  const key = await derive(password, salt, N, r, p);
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  // Unknown users are checked against a dummy hash so both answers take about the same time.
  const parts = (stored ?? dummy()).split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, N, r, p, salt, hash] = parts;
  const expected = Buffer.from(hash, 'base64');
  const key = await derive(password, Buffer.from(salt, 'base64'), Number(N), Number(r), Number(p));
  return stored !== null && stored !== undefined && key.length === expected.length && timingSafeEqual(key, expected);
}

let dummyHash: string | undefined;
/** A hash at the current cost that no password matches. */
const dummy = () =>
  (dummyHash ??= `scrypt$${cost.N}$${cost.r}$${cost.p}$${Buffer.alloc(16).toString('base64')}$${Buffer.alloc(KEY_LENGTH).toString('base64')}`);

export function passwordProblem(password: unknown): string | null {
  if (typeof password !== 'string') return 'The password must be text.';
  if (password.length < MIN_PASSWORD_LENGTH)
    return `The password must be at least ${MIN_PASSWORD_LENGTH} characters long.`;
  if (password.length > 1024) return 'The password is too long.';
  return null;
}
