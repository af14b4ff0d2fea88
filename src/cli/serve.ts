/** `cms serve`: start, print one line (and where to register when there are no users), stop cleanly on SIGINT/SIGTERM. */
import { existsSync } from 'node:fs';
import { countUsers } from '../operations/login.ts';
import { createCMS } from '../create-cms.ts';
import type { CMS } from '../cms.ts';
import { ConfigError } from '../errors.ts';
import type { LogFormat } from '../http/observe-request.ts';
import { startServer } from '../server.ts';
import type { CLIArgs } from './args.ts';
import { isDev } from './common.ts';
import { startupMark } from '../startup-timing.ts';
import { seedIfEmpty } from './seed.ts';

export async function serveCommand(args: CLIArgs): Promise<void> {
  startupMark('serve loaded');
  const dev = isDev(args);
  const tls = tlsFiles(args);
  const format = logFormat(args);
  const cms = await createCMS({ configPath: (args.flags.config as string) ?? null, dev });
  // Loaded only when replicating, so a plain start reads none of it.
  if (cms.config.replica) await (await import('./replica.ts')).startReplicaFor(cms);
  if (dev && cms.config.configPath) await refreshTypes(cms);
  const seeded = await seedIfEmpty(cms);
  if (seeded) console.log(`the database was empty: added the sample content of ${seeded}`);
  const port = Number(args.flags.port ?? process.env.PORT ?? 3000);
  const host = String(args.flags.host ?? process.env.HOST ?? '127.0.0.1');
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port ${args.flags.port ?? process.env.PORT} is not a port number`);
  const server = startServer(cms, { port, host, tls, logFormat: format });
  startupMark('listening');
  const where = cms.config.configPath ?? 'built-in defaults (no config file)';
  console.log(
    `cms listening on ${server.url}${cms.config.routes.admin} · database ${cms.config.databaseLabel} · config ${where}${dev ? ' · dev' : ''}`,
  );
  if (cms.config.publicDir)
    console.log(`site at ${publicOrigin(cms, server.url)}/ (the files in ${cms.config.publicDir})`);
  if ((await countUsers(cms)) === 0)
    console.log(`no users yet: open ${adminURL(cms, server.url)} to create the first admin (or run cms create-admin)`);
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

/**
 * In dev the types follow the config: the server reads its config once at start, so a restart is when a
 * changed config takes effect, and that is when cms-types.ts is rewritten (only if it differs).
 */
async function refreshTypes(cms: CMS): Promise<void> {
  try {
    // Dev only, so the type generator stays out of a production server's start.
    const { writeTypesFile } = await import('../codegen/write-types-file.ts');
    const { file, changed } = writeTypesFile(cms.config);
    if (changed) console.log(`types written to ${file}`);
  } catch (error) {
    cms.log.warn(`could not write the types file: ${error instanceof Error ? error.message : error}`);
  }
}

function tlsFiles(args: CLIArgs): { cert: string; key: string } | undefined {
  const cert = args.flags['tls-cert'] as string | undefined;
  const key = args.flags['tls-key'] as string | undefined;
  if (!cert && !key) return undefined;
  if (!cert || !key)
    throw new ConfigError('--tls-cert and --tls-key go together (PEM files of the certificate and its private key)');
  for (const file of [cert, key]) if (!existsSync(file)) throw new ConfigError(`TLS file ${file} does not exist`);
  return { cert, key };
}

function logFormat(args: CLIArgs): LogFormat {
  const format = (args.flags['log-format'] as string | undefined) ?? 'text';
  if (format !== 'text' && format !== 'json') throw new ConfigError(`--log-format ${format}: expected text or json`);
  return format;
}

/** The server as a person would open it: serverURL when set, else the listening address (any-address binds shown as localhost). */
function publicOrigin(cms: CMS, listening: string): string {
  return cms.config.serverURL?.replace(/\/+$/, '') ?? listening.replace(/\/\/(0\.0\.0\.0|\[::\])(?=:)/, '//localhost');
}

function adminURL(cms: CMS, listening: string): string {
  return `${publicOrigin(cms, listening)}${cms.config.routes.admin}`;
}
