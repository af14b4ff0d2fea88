#!/usr/bin/env bun
/** The `cms` command line. Errors print as one line and exit 1; no stack traces for expected failures. */
import pkg from '../../package.json' with { type: 'json' };
import { ConfigError } from '../errors.ts';
import { HELP, parseCLI, type CLIArgs } from './args.ts';
import { startupMark } from '../startup-timing.ts';

startupMark('main');

const commands: Record<string, (args: CLIArgs) => Promise<void>> = {
  serve: async (a) => (await import('./serve.ts')).serveCommand(a),
  init: async (a) => (await import('./init.ts')).initCommand(a),
  'create-admin': async (a) => (await import('./create-admin.ts')).createAdminCommand(a),
  migrate: async (a) => (await import('./migrate.ts')).migrateCommand(a),
  'migrate:status': async (a) => (await import('./migrate.ts')).migrateStatusCommand(a),
  'migrate:create': async (a) => (await import('./migrate.ts')).migrateCreateCommand(a),
  'migrate:engine': async (a) => (await import('./migrate-engine.ts')).migrateEngineCommand(a),
  'generate:types': async (a) => (await import('./generate-types.ts')).generateTypesCommand(a),
  'generate:graphql-schema': async (a) =>
    (await import('./generate-graphql-schema.ts')).generateGraphQLSchemaCommand(a),
  backup: async (a) => (await import('./backup.ts')).backupCommand(a),
  restore: async (a) => (await import('./backup.ts')).restoreCommand(a),
  export: async (a) => (await import('./export.ts')).exportCommand(a),
  import: async (a) =>
    a.rest.length === 2
      ? (await import('./import-source.ts')).importSourceCommand(a)
      : (await import('./export.ts')).importCommand(a),
  replica: async (a) => (await import('./replica.ts')).replicaCommand(a),
  reindex: async (a) => (await import('./reindex.ts')).reindexCommand(a),
  help: async () => void process.stdout.write(HELP),
  version: async () => console.log(pkg.version),
};

try {
  const args = parseCLI(process.argv.slice(2));
  const command = commands[args.command];
  if (!command) throw new ConfigError(`unknown command "${args.command}" (see cms --help)`);
  await command(args);
} catch (error) {
  const expected =
    error instanceof ConfigError ||
    (error instanceof Error &&
      ['ERR_PARSE_ARGS_UNKNOWN_OPTION', 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE'].includes(
        (error as { code?: string }).code ?? '',
      ));
  console.error(expected ? (error as Error).message : error instanceof Error ? `cms: ${error.message}` : String(error));
  if (!expected && process.env.NODE_ENV === 'development') console.error(error);
  process.exit(1);
}
