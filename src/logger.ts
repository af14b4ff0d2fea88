/** Where the instance writes what it has to say: `console` unless `createCMS` is given another. */
export type Logger = { info(...a: unknown[]): void; warn(...a: unknown[]): void; error(...a: unknown[]): void };
