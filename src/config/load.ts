/** Finds the config file (docs/config.md), imports it and sanitizes it. */
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../errors.ts';
import { sanitizeConfig } from './sanitize.ts';
import type { SanitizedConfig, UserConfig } from './types.ts';

const CANDIDATES = ['cms.config.ts', 'cms.config.js', 'cms.config.json'];

/** True inside the compiled single-file executable. */
export const isCompiled = import.meta.url.includes('$bunfs') || import.meta.url.includes('~BUN');

export function executableDir(): string {
  return path.dirname(process.execPath);
}

/** `--config`, else CMS_CONFIG, else cms.config.* in the working directory, else beside the executable. */
export function findConfigFile(explicit?: string | null): string | null {
  const given = explicit || process.env.CMS_CONFIG;
  if (given) {
    const file = path.resolve(given);
    if (!fs.existsSync(file)) throw new ConfigError(`Config error: config file ${file} does not exist`);
    return file;
  }
  const folders = [process.cwd()];
  if (isCompiled) folders.push(executableDir());
  for (const folder of folders) {
    for (const name of CANDIDATES) {
      const file = path.join(folder, name);
      if (fs.existsSync(file)) return file;
    }
  }
  return null;
}

export async function importConfigFile(file: string): Promise<UserConfig> {
  try {
    if (file.endsWith('.json')) return JSON.parse(fs.readFileSync(file, 'utf8'));
    const mod = await import(file);
    return (mod.default ?? mod.config ?? mod) as UserConfig;
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new ConfigError(`Config error in ${file}: cannot load it: ${reason}`);
  }
}

/** `database`: a database that beats the config's and DATABASE_URL (a command's own target). */
export type LoadOptions = {
  configPath?: string | null;
  config?: UserConfig;
  rootDir?: string;
  dev?: boolean;
  database?: string;
};

/** Loads and sanitizes the config. A config object (Local API, tests) may be passed instead of a file. */
export async function loadConfig(options: LoadOptions = {}): Promise<SanitizedConfig> {
  if (options.config) {
    return sanitizeConfig(options.config, {
      configPath: null,
      rootDir: options.rootDir ?? process.cwd(),
      dev: options.dev,
      database: options.database,
    });
  }
  const file = findConfigFile(options.configPath);
  const input = file ? await importConfigFile(file) : {};
  const rootDir = file ? path.dirname(file) : (options.rootDir ?? (isCompiled ? executableDir() : process.cwd()));
  return sanitizeConfig(input, {
    configPath: file,
    rootDir,
    dev: options.dev,
    database: options.database,
    builtInDefaults: !file,
  });
}
