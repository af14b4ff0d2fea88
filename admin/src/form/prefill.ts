/**
 * Values handed to the create form a button opens ("Duplicate", a join's "New … here"): kept in memory
 * for the next create view of that path, and nothing is saved until the editor saves.
 */
import type { Doc } from '../api.ts'

let pending: { path: string; values: Doc } | null = null

export function handOver(path: string, values: Doc): void {
  pending = { path, values }
}

/** The values handed to `path`, once. */
export function takeHandOver(path: string): Doc | null {
  const values = pending && pending.path === path ? pending.values : null
  pending = null
  return values
}
