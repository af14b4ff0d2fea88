import type { CLIArgs } from './args.ts';

export const isDev = (args: CLIArgs) => Boolean(args.flags.dev) || process.env.NODE_ENV === 'development';
