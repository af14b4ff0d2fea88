/**
 * `cms generate:graphql-schema [--out FILE]`: the GraphQL schema of the config in SDL, for frontends'
 * code generators (default `schema.graphql` beside the config). Reads no database.
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config/load.ts';
import { ConfigError } from '../errors.ts';
import { schemaSDL } from '../graphql/schema.ts';
import type { CLIArgs } from './args.ts';

export async function generateGraphQLSchemaCommand(args: CLIArgs): Promise<void> {
  const config = await loadConfig({ configPath: (args.flags.config as string) ?? null });
  if (!config.graphQL) throw new ConfigError('GraphQL is turned off in this config (graphQL.disable).');
  const file = path.resolve((args.flags.out as string | undefined) ?? path.join(config.rootDir, 'schema.graphql'));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${schemaSDL(config)}\n`);
  console.log(`wrote ${file}`);
}
