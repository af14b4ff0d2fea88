/** `cms serve`: start, print one line, stop cleanly on SIGINT/SIGTERM. */
import { createCMS } from '../cms.ts';
import { startServer } from '../server.ts';
import type { CLIArgs } from './args.ts';
import { isDev } from './common.ts';

export async function serveCommand(args: CLIArgs): Promise<void> {
  const dev = isDev(args);
  const cms = await createCMS({ configPath: (args.flags.config as string) ?? null, dev });
  const port = Number(args.flags.port ?? process.env.PORT ?? 3000);
  const host = String(args.flags.host ?? process.env.HOST ?? '127.0.0.1');
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port ${args.flags.port ?? process.env.PORT} is not a port number`);
  const server = startServer(cms, { port, host });
  const where = cms.config.configPath ?? 'built-in defaults (no config file)';
  console.log(`cms listening on ${server.url}${cms.config.routes.admin} · database ${cms.config.databasePath} · config ${where}${dev ? ' · dev' : ''}`);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping (finishing requests in flight)…`);
    try {
      await server.stop();
      process.exit(0);
    } catch (error) {
      console.error('cms: error while stopping:', error);
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  // Windows: Ctrl+C arrives as SIGINT (SIGTERM is never sent there); Ctrl+Break as SIGBREAK.
  if (process.platform === 'win32') process.on('SIGBREAK', () => void stop('SIGBREAK'));
}
