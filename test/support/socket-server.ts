/**
 * An instance on the engine under test served by Bun.serve itself (src/server.ts) on a loopback port the
 * system picks, for a file whose tests need a real socket: set up before its tests, stopped and its
 * database dropped after them. `seed` writes what the tests read before the server starts.
 */
import { afterAll, beforeAll } from 'bun:test';
import fs from 'node:fs';
import { createCMS } from '../../src/create-cms.ts';
import type { CMS } from '../../src/cms.ts';
import { startServer, type RunningServer, type ServerOptions } from '../../src/server.ts';
import type { UserConfig } from '../../src/config/types.ts';
import { DEFAULT_TEST_ENGINE, quietLog, sharedTestDatabase, tempDir } from '../harness.ts';

export type SocketServer = { cms: CMS; server: RunningServer; api(): string };

export function serveOverSocket(
  config: UserConfig,
  options: { prefix: string; server?: ServerOptions; seed?: (cms: CMS) => Promise<unknown> },
): SocketServer {
  const dir = tempDir(options.prefix);
  let drop = async () => {};
  const served = { api: () => `${served.server.url}/api/cms` } as SocketServer;
  beforeAll(async () => {
    const db = await sharedTestDatabase(dir, DEFAULT_TEST_ENGINE);
    drop = db.drop;
    served.cms = await createCMS({ config: { database: db.database, ...config }, rootDir: dir, log: quietLog });
    await options.seed?.(served.cms);
    served.server = startServer(served.cms, {
      port: 0,
      host: '127.0.0.1',
      jobLoop: false,
      logFormat: 'off',
      ...options.server,
    });
  });
  afterAll(async () => {
    await served.server?.stop();
    await drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return served;
}
