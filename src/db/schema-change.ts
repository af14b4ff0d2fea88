/** What both engines' schema diffs share: the change's shape, what counts as destructive, and when SQL is generated. */
export type Snapshot = {
  fingerprint: string;
  drizzle: Record<string, unknown> & { tables: Record<string, { columns: Record<string, { type: string }> }> };
};
export type PendingChange = { statements: string[]; destructive: string[]; snapshot: Snapshot };

/** Dropped tables, dropped columns and changed column types lose data: never applied by ourselves. */
export function findDestructive(before: Snapshot['drizzle']['tables'], after: Snapshot['drizzle']['tables']): string[] {
  const found: string[] = [];
  for (const [name, table] of Object.entries(before)) {
    const next = after[name];
    if (!next) {
      found.push(`table "${name}" would be dropped`);
      continue;
    }
    for (const [column, def] of Object.entries(table.columns)) {
      const nextDef = next.columns[column];
      if (!nextDef) found.push(`column "${name}"."${column}" would be dropped`);
      else if (nextDef.type !== def.type)
        found.push(`column "${name}"."${column}" would change type from ${def.type} to ${nextDef.type}`);
    }
  }
  return found;
}

/**
 * The SQL of a change: none when it would lose data (unless allowed), and a note to write it by hand when
 * drizzle-kit would ask interactively about renames (it throws without a terminal).
 */
export async function changeStatements(
  destructive: string[],
  options: { allowDestructive?: boolean },
  generate: () => Promise<string[]>,
): Promise<string[]> {
  if (destructive.length && !options.allowDestructive) return [];
  try {
    return await generate();
  } catch {
    return ['-- Write the SQL for this change by hand: ' + destructive.join('; ')];
  }
}
