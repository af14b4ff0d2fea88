/** The instance secret (CONTRACT §1): `secret`, else CMS_SECRET, else generated once into data/secret (0600). */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

export function resolveSecret(configured: string | null, dataDir: string): string {
  if (configured) return configured;
  if (process.env.CMS_SECRET) return process.env.CMS_SECRET;
  const file = path.join(dataDir, 'secret');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  fs.mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, secret + '\n', { mode: 0o600 });
  try {
    fs.linkSync(temp, file); // first writer wins when two processes start together
  } catch {
    /* another process made it first */
  }
  fs.rmSync(temp, { force: true });
  return fs.readFileSync(file, 'utf8').trim();
}
