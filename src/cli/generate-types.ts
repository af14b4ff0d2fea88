/** `cms generate:types [--out FILE]`: TypeScript for the config's collections and globals (docs/typescript.md). Reads no database. */
import { loadConfig } from '../config/load.ts';
import { writeTypesFile } from '../codegen/write-types-file.ts';
import type { CLIArgs } from './args.ts';

export async function generateTypesCommand(args: CLIArgs): Promise<void> {
  const config = await loadConfig({ configPath: (args.flags.config as string) ?? null });
  const { file, changed } = writeTypesFile(config, args.flags.out as string | undefined);
  console.log(changed ? `wrote ${file}` : `${file} is up to date`);
}
