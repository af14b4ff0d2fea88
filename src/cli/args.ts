/** Parses `cms <command> [flags]`. Flags beat env, env beats config (docs/config.md). */
import { parseArgs } from 'node:util';

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
      locale: { type: 'string' },
      drafts: { type: 'boolean' },
      collection: { type: 'string' },
      template: { type: 'string' },
      'with-database': { type: 'boolean' },
      'trust-archive': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
    },
  });
  const [command = 'serve', ...rest] = positionals;
  return { command: values.help ? 'help' : values.version ? 'version' : command, flags: values, rest };
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
  cms export [--out DIR] [--locale all|CODE] [--drafts]       write content as JSON files plus media (default export/ beside the config)
  cms import DIR                                               load an export folder into this instance (ids kept)
  cms reindex [--collection SLUG]                              rebuild the full-text search indexes from the documents
  cms --help | --version

Every command takes --config FILE and honours CMS_CONFIG.
Environment: PORT, HOST, CMS_CONFIG, DATABASE_URL, CMS_SECRET, CMS_CRON_SECRET, NODE_ENV.
Defaults: host 127.0.0.1, port 3000; production unless --dev or NODE_ENV=development.
`;
