import type { CLIArgs } from './args.ts';

export const isDev = (args: CLIArgs) => Boolean(args.flags.dev) || process.env.NODE_ENV === 'development';

/** A byte count as the CLI prints it: `12.3 MB`. */
export const megabytes = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;

/** The sum of a count per collection (or table). */
export const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);
