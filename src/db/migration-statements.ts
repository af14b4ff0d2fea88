/**
 * Migration SQL as drizzle-kit writes it: statements separated by `--> statement-breakpoint` lines, with
 * `-- …` comment lines (a file may start with a header of them). Every runner of migration files splits them
 * here, except drizzle's own SQLite migrator, which is handed the parts as its reader would cut them.
 */
export const STATEMENT_BREAKPOINT = '--> statement-breakpoint';

/** The statements of one migration file, comment-only lines and empty statements left out. */
export function migrationStatements(text: string): string[] {
  return text
    .split(STATEMENT_BREAKPOINT)
    .map((s) =>
      s
        .split('\n')
        .filter((l) => !l.trim().startsWith('--'))
        .join('\n')
        .trim(),
    )
    .filter(Boolean);
}
