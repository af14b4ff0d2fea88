/** Writes the generated types to a file (default `cms-types.ts` beside the config), only when they changed. */
import fs from 'node:fs';
import path from 'node:path';
import type { SanitizedConfig } from '../config/types.ts';
import { generateTypes } from './generate-types.ts';

export const DEFAULT_TYPES_FILE = 'cms-types.ts';

export function writeTypesFile(config: SanitizedConfig, out?: string): { file: string; changed: boolean } {
  const file = path.resolve(out ?? path.join(config.rootDir, DEFAULT_TYPES_FILE));
  const source = config.configPath ? path.basename(config.configPath) : 'the built-in defaults';
  const text = generateTypes(config, source);
  // Unchanged text is not rewritten, so `serve --dev` does not wake file watchers (tsc --watch, editors) for nothing.
  if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === text) return { file, changed: false };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return { file, changed: true };
}
