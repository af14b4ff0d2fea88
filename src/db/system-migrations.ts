/** Temporary loader (replaced by the build branch's embedded version): reads migrations/system from the repo. */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';

const folder = path.join(import.meta.dir, '../../migrations/system');
const journal = JSON.parse(fs.readFileSync(path.join(folder, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string; when: number }[] };

export const systemMigrations = journal.entries.map((e) => ({ tag: e.tag, when: e.when, sql: fs.readFileSync(path.join(folder, `${e.tag}.sql`), 'utf8') }));

export function toDrizzleMigrations(list: typeof systemMigrations) {
  return list.map((m) => ({ sql: m.sql.split('--> statement-breakpoint'), bps: true, folderMillis: m.when, hash: createHash('sha256').update(m.sql).digest('hex') }));
}
