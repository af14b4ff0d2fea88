/**
 * A consistent copy of a live SQLite database (backups, docs/operations.md): `VACUUM INTO` on a read-only
 * connection of its own. In WAL mode that is one read transaction, so writers go on committing while it
 * runs and the copy is the database as of its start, never a torn file copy. It runs in a worker thread
 * because bun:sqlite statements are synchronous: on the main thread a copy of a large database would stop
 * the server answering for its whole duration. The worker also counts the copy's rows, for the manifest.
 */
import fs from 'node:fs';

// Inline source (a blob URL) rather than a worker file: it needs no extra entry point in the single binary.
const WORKER_SOURCE = `
import { Database } from 'bun:sqlite';
self.onmessage = ({ data: { source, target } }) => {
  // Both connections are closed before answering, also after a failure: the answer ends this thread, and
  // a connection left to that keeps the database file in use (a restore in this process finds it held).
  let live = null;
  let copy = null;
  let answer;
  try {
    live = new Database(source, { readonly: true });
    live.exec('PRAGMA busy_timeout = 5000');
    live.query('VACUUM INTO ?').run(target);
    live.close();
    live = null;
    copy = new Database(target, { readonly: true });
    const rows = {};
    for (const { name } of copy.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all()) {
      rows[name] = copy.query('SELECT count(*) AS n FROM "' + name.replaceAll('"', '""') + '"').get().n;
    }
    answer = { rows };
  } catch (error) {
    answer = { error: error instanceof Error ? error.message : String(error) };
  }
  live?.close();
  copy?.close();
  postMessage(answer);
};
`;

let workerURL: string | null = null;

export async function snapshotSqlite(source: string, target: string): Promise<{ rows: Record<string, number> }> {
  if (source === ':memory:') throw new Error('An in-memory database cannot be copied by another connection.');
  // VACUUM INTO refuses to write over an existing file.
  await fs.promises.rm(target, { force: true });
  workerURL ??= URL.createObjectURL(new Blob([WORKER_SOURCE], { type: 'application/javascript' }));
  const worker = new Worker(workerURL);
  try {
    const answer = await new Promise<{ rows?: Record<string, number>; error?: string }>((resolve, reject) => {
      worker.onmessage = (event) => resolve(event.data);
      worker.onerror = (event) => reject(new Error(`database snapshot failed: ${event.message}`));
      worker.postMessage({ source, target });
    });
    if (answer.error) throw new Error(`database snapshot failed: ${answer.error}`);
    return { rows: answer.rows! };
  } finally {
    worker.terminate();
  }
}
