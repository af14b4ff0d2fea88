/**
 * Faults of the machine rather than of the request: a full disk, a database or file store out of reach.
 * Each is told from the error a driver throws (its code, or its cause's), so that the client gets an
 * honest answer (503 with Retry-After for what passes, 507 for a full disk: src/http/errors.ts) instead of
 * a 500 or a 400 that says its own request was wrong. docs/operations.md "Under faults".
 */
import { type APIError, insufficientStorage, unavailable } from './errors.ts';

export type FaultKind = 'disk full' | 'database unreachable' | 'database busy' | 'file storage unreachable';

/** errno codes of a write that found no room. */
const DISK_FULL = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);
/** SQLite still waiting for another process's lock after busy_timeout. */
const DATABASE_BUSY = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_BUSY_RECOVERY']);
/**
 * Bun.SQL's connection errors, and PostgreSQL's SQLSTATEs for a connection that broke or a server that
 * is shutting down, starting or out of connections (classes 08 and 57P, 53300).
 */
const DATABASE_GONE = /^(ERR_POSTGRES_(CONNECTION_|IDLE_TIMEOUT|LIFETIME_TIMEOUT|TLS)|08|57P0[1-4]|53300)/;
/** Bun.S3Client's codes for a store that cannot be reached or says it is unavailable for now. */
const STORAGE_GONE =
  /^(Connection|Timeout|ETIMEDOUT|ECONNREFUSED|ECONNRESET|EPIPE|ServiceUnavailable|SlowDown|InternalError|RequestTimeout|UnknownError)/;

/** The codes on an error and on its causes, outermost first. */
function codesOf(error: unknown): { code: string; name: string }[] {
  const codes: { code: string; name: string }[] = [];
  for (
    let e = error, depth = 0;
    e && typeof e === 'object' && depth < 5;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const { code, errno, name } = e as { code?: unknown; errno?: unknown; name?: unknown };
    for (const c of [errno, code]) if (typeof c === 'string') codes.push({ code: c, name: String(name ?? '') });
  }
  return codes;
}

export function faultKind(error: unknown): FaultKind | null {
  for (const { code, name } of codesOf(error)) {
    if (DISK_FULL.has(code)) return 'disk full';
    if (DATABASE_BUSY.has(code)) return 'database busy';
    if (DATABASE_GONE.test(code)) return 'database unreachable';
    if (name === 'S3Error' && STORAGE_GONE.test(code)) return 'file storage unreachable';
  }
  return null;
}

/** The answer for a fault: what the client can do about it, and never its details. */
export function faultAnswer(kind: FaultKind): APIError {
  switch (kind) {
    case 'disk full':
      return insufficientStorage();
    case 'database busy':
      return unavailable('The database is busy; retry shortly.', 1);
    case 'database unreachable':
      return unavailable('The database cannot be reached right now; retry shortly.');
    case 'file storage unreachable':
      return unavailable('The file storage cannot be reached right now; retry shortly.');
  }
}
