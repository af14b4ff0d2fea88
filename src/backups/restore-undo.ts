/**
 * What a restore changed, kept so that a restore that stops halfway (a full disk, an archive changed
 * since it was verified, a database that will not load) can put everything back: each thing moved aside
 * returns to its name, each file it wrote where there was none goes, and a PostgreSQL database already
 * restored is loaded again from the dump taken before. Undone newest first.
 */
import fs from 'node:fs';
import path from 'node:path';

export type RestoreUndo = {
  /** Renames `file` (a file or folder) beside itself with `suffix`; nothing when it does not exist. */
  moveAside(file: string): Promise<void>;
  /** `file` is about to be written by the restore: when nothing is there now, undoing removes it. */
  writing(file: string): void;
  /** Another step to undo, such as loading the database as it was. */
  add(step: { what: string; undo: () => Promise<void> }): void;
  /** Everything moved aside, in order. */
  movedAside: string[];
  /** What names beside themselves end with: `.before-restore-<UTC time>`. */
  suffix: string;
  /** Puts everything back; answers what could not be, each with where it is now. */
  putBack(): Promise<string[]>;
};

export function restoreUndo(suffix: string): RestoreUndo {
  const steps: { what: string; undo: () => Promise<void> }[] = [];
  const movedAside: string[] = [];
  return {
    movedAside,
    suffix,
    async moveAside(file) {
      const original = path.resolve(file);
      if (!fs.existsSync(original)) return;
      const aside = original + suffix;
      await fs.promises.rename(original, aside);
      movedAside.push(aside);
      steps.push({
        what: `${original} (it is at ${aside})`,
        // Whatever is at the name now was written by the restore.
        undo: async () => {
          await fs.promises.rm(original, { recursive: true, force: true });
          await fs.promises.rename(aside, original);
        },
      });
    },
    writing(file) {
      const target = path.resolve(file);
      if (fs.existsSync(target)) return;
      steps.push({
        what: `${target} (restored, to remove)`,
        undo: () => fs.promises.rm(target, { recursive: true, force: true }),
      });
    },
    add(step) {
      steps.push(step);
    },
    async putBack() {
      const failed: string[] = [];
      for (const step of steps.reverse()) {
        await step.undo().catch((error) => failed.push(`${step.what}: ${(error as Error).message}`));
      }
      return failed;
    },
  };
}
