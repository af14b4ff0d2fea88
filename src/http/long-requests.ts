/**
 * Bun.serve closes a connection that stays silent for its idle timeout (10 s), which is right for every
 * request but one that works that long before it answers (`POST /backups`). The server registers itself
 * once per instance; such a route calls `keepOpen`, which lifts the timeout of its request. Requests made
 * without Bun.serve (`app.handle` in tests) find no server, or one that does not know them (Bun ignores a
 * request it did not receive), and have nothing to lift.
 */
import type { Server } from 'bun';
import type { CMS } from '../cms.ts';

const servers = new WeakMap<CMS, Server<unknown>>();

export function rememberServer(cms: CMS, server: Server<unknown>): void {
  servers.set(cms, server);
}

export function keepOpen(cms: CMS, request: Request): void {
  servers.get(cms)?.timeout(request, 0);
}
