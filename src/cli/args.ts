/**
 * Parses `cms <command> [flags]`. Flags beat env, env beats config (docs/config.md). Each command takes
 * only its own flags and positionals: anything else is refused with its usage line, never ignored.
 */
import { parseArgs } from 'node:util';
import { ConfigError } from '../errors.ts';

export type CLIArgs = { command: string; flags: Record<string, string | boolean | undefined>; rest: string[] };

export function parseCLI(argv: string[]): CLIArgs {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      config: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      dev: { type: 'boolean' },
      'tls-cert': { type: 'string' },
      'tls-key': { type: 'string' },
      'log-format': { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
      name: { type: 'string' },
      out: { type: 'string' },
      to: { type: 'string' },
      at: { type: 'string' },
      txid: { type: 'string' },
      locale: { type: 'string' },
      drafts: { type: 'boolean' },
      collection: { type: 'string' },
      template: { type: 'string' },
      'with-database': { type: 'boolean' },
      'trust-archive': { type: 'boolean' },
      'dry-run': { type: 'boolean' },
      'emit-config': { type: 'string' },
      report: { type: 'string' },
      uploads: { type: 'string' },
      'fetch-media': { type: 'boolean' },
      public: { type: 'string' },
      root: { type: 'string' },
      key: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
    },
  });
  const [command = 'serve', ...rest] = positionals;
  const parsed = { command: values.help ? 'help' : values.version ? 'version' : command, flags: values, rest };
  checkCommandArgs(parsed);
  return parsed;
}

/** What `cms import <source> INPUT` reads (docs/moving-in.md); one positional alone is an export folder. */
export const IMPORT_SOURCES = ['wordpress', 'markdown', 'payload'];

/** `cms import <source> INPUT` takes these; `cms import DIR` none of them (export.ts refuses them there). */
const IMPORT_FLAGS = [
  'dry-run',
  'emit-config',
  'report',
  'uploads',
  'fetch-media',
  'public',
  'root',
  'collection',
  'key',
  'email',
  'password',
];

/** What each command takes beside `--config`: its flags, how many positionals, and its usage line. */
type CommandShape = { flags: string[]; positionals: [min: number, max: number]; usage: string };

const COMMANDS: Record<string, CommandShape> = {
  serve: {
    flags: ['port', 'host', 'dev', 'tls-cert', 'tls-key', 'log-format'],
    positionals: [0, 0],
    usage:
      'cms [serve] [--config FILE] [--port N] [--host H] [--dev] [--tls-cert FILE --tls-key FILE] [--log-format text|json]',
  },
  init: { flags: ['template'], positionals: [0, 1], usage: 'cms init [DIR] [--template website]' },
  'create-admin': {
    flags: ['email', 'password', 'name'],
    positionals: [0, 0],
    usage: 'cms create-admin [--email E --password P --name N] [--config FILE]',
  },
  migrate: { flags: [], positionals: [0, 0], usage: 'cms migrate [--config FILE]' },
  'migrate:status': { flags: [], positionals: [0, 0], usage: 'cms migrate:status [--config FILE]' },
  'migrate:create': { flags: [], positionals: [0, 1], usage: 'cms migrate:create [NAME] [--config FILE]' },
  'migrate:engine': {
    flags: ['to'],
    positionals: [0, 0],
    usage: 'cms migrate:engine --to postgres://… [--config FILE]',
  },
  'generate:types': { flags: ['out'], positionals: [0, 0], usage: 'cms generate:types [--out FILE] [--config FILE]' },
  'generate:graphql-schema': {
    flags: ['out'],
    positionals: [0, 0],
    usage: 'cms generate:graphql-schema [--out FILE] [--config FILE]',
  },
  backup: {
    flags: ['out', 'with-database'],
    positionals: [0, 0],
    usage: 'cms backup [--out DIR] [--with-database] [--config FILE]',
  },
  restore: {
    flags: ['trust-archive'],
    positionals: [1, 1],
    usage: 'cms restore FILE [--trust-archive] [--config FILE]',
  },
  export: {
    flags: ['out', 'locale', 'drafts'],
    positionals: [0, 1],
    usage: 'cms export [DIR | --out DIR] [--locale all|CODE] [--drafts] [--config FILE]',
  },
  import: {
    flags: IMPORT_FLAGS,
    positionals: [1, 2],
    usage:
      'cms import DIR | cms import wordpress|markdown|payload INPUT [--dry-run] [--emit-config FILE] [--report FILE] [--uploads DIR] [--fetch-media] [--public DIR] [--root DIR] [--collection NAME] [--key KEY | --email E --password P] [--config FILE]',
  },
  replica: {
    flags: ['at', 'txid', 'to'],
    positionals: [1, 1],
    usage: 'cms replica status | restore [--at ISO-TIME | --txid N] [--to DIR] | verify [--config FILE]',
  },
  reindex: { flags: ['collection'], positionals: [0, 0], usage: 'cms reindex [--collection SLUG] [--config FILE]' },
  help: { flags: [], positionals: [0, 0], usage: 'cms --help' },
  version: { flags: [], positionals: [0, 0], usage: 'cms --version' },
};

/** Refuses a flag or positional the command does not take (an unknown command is main.ts's to name). */
function checkCommandArgs({ command, flags, rest }: CLIArgs): void {
  const shape = COMMANDS[command];
  // `--help` and `--version` answer whatever else was typed.
  if (!shape || command === 'help' || command === 'version') return;
  const refuse = (problem: string): never => {
    throw new ConfigError(`cms ${command}: ${problem}\nusage: ${shape.usage}`);
  };
  const allowed = new Set([...shape.flags, 'config', 'help', 'version']);
  const unknown = Object.keys(flags).filter((flag) => flags[flag] !== undefined && !allowed.has(flag));
  if (unknown.length) refuse(`it does not take ${unknown.map((flag) => `--${flag}`).join(', ')}`);
  const [min, max] = shape.positionals;
  if (rest.length > max)
    refuse(
      `unexpected argument${rest.length - max > 1 ? 's' : ''} ${rest
        .slice(max)
        .map((a) => `"${a}"`)
        .join(' ')}`,
    );
  if (rest.length < min) refuse('an argument is missing');
  if (command === 'import' && rest.length === 2 && !IMPORT_SOURCES.includes(rest[0]!))
    refuse(`unexpected argument "${rest[1]}" ("${rest[0]}" is not a source: ${IMPORT_SOURCES.join(', ')})`);
}

export const HELP = `cms: a headless CMS in one file

Usage:
  cms [serve] [--config FILE] [--port N] [--host H] [--dev]   run the server (default command)
        [--tls-cert FILE --tls-key FILE]                     serve HTTPS (PEM files); cookies become Secure
        [--log-format text|json]                             one log line per request
  cms init [DIR] [--template website]                          write a starter cms.config.ts and .gitignore
                                                               (website: a whole site, seeded at the first start)
  cms create-admin [--email E --password P --name N]           create an admin user (prompts on a terminal)
  cms migrate                                                  apply pending migration files
  cms migrate:status                                           list applied and pending migrations
  cms migrate:create [NAME]                                    write the SQL for config changes into migrations/sqlite/ or migrations/postgres/ beside the config
  cms migrate:engine --to postgres://…                         copy this SQLite project's data into an empty PostgreSQL database
  cms generate:types [--out FILE]                              write TypeScript types for the config (default cms-types.ts beside it)
  cms generate:graphql-schema [--out FILE]                     write the GraphQL schema as SDL (default schema.graphql beside it)
  cms backup [--out DIR] [--with-database]                     write a backup (database, uploads, manifest) now;
                                                               PostgreSQL: --with-database adds a pg_dump
  cms restore FILE [--trust-archive]                           check a backup, move current data aside, restore it
  cms replica status                                           the replica's state as JSON (docs/replication.md)
  cms replica restore [--at ISO-TIME | --txid N] [--to DIR]    restore the database and uploads of that moment
                                                               (default: the latest; in place, current data moved aside)
  cms replica verify                                           restore the latest into a temporary folder and check it
  cms export [DIR | --out DIR] [--locale all|CODE] [--drafts] write content as JSON files plus media (default export/ beside the config)
  cms import DIR                                               load an export folder into this instance (ids kept)
  cms import wordpress|markdown|payload INPUT                  move a site in (docs/moving-in.md): [--dry-run]
        [--emit-config FILE] [--report FILE] [--uploads DIR] [--fetch-media] [--public DIR] [--root DIR]
        [--collection NAME] [--key KEY | --email E --password P]
  cms reindex [--collection SLUG]                              rebuild the full-text search indexes from the documents
  cms --help | --version

Every command takes --config FILE and honours CMS_CONFIG.
Environment: PORT, HOST, CMS_CONFIG, DATABASE_URL, CMS_SECRET, CMS_CRON_SECRET, NODE_ENV.
Defaults: host 127.0.0.1, port 3000; production unless --dev or NODE_ENV=development.
`;
