/**
 * `cms import wordpress FILE | markdown DIR | payload URL` (docs/moving-in.md): moving a site in. The work is in
 * src/moving-in/; this reads the flags, opens the instance (a dry run leaves its schema as it is), shows a progress
 * line on a terminal and prints the report.
 */
import path from 'node:path';
import { createCMS } from '../create-cms.ts';
import { ConfigError } from '../errors.ts';
import type { CLIArgs } from './args.ts';
import { progressLine } from './progress-line.ts';
import { finishRun } from '../moving-in/finish-run.ts';
import type { ImportRun, Progress } from '../moving-in/import-run.ts';
import type { CMS } from '../cms.ts';

type Source = 'wordpress' | 'markdown' | 'payload';

const str = (args: CLIArgs, name: string) => args.flags[name] as string | undefined;

/** On a terminal a line rewritten in place (on stderr, so the report on stdout stays plain JSON); elsewhere nothing. */
function terminalProgress(): { show: Progress; done: () => void } {
  if (!process.stderr.isTTY) return { show: () => {}, done: () => {} };
  const line = progressLine('import', undefined, { tty: true, write: (t) => void process.stderr.write(t) });
  return { show: line.show, done: line.done };
}

export async function importSourceCommand(args: CLIArgs): Promise<void> {
  const [source, input] = args.rest as [Source, string];
  const emit = str(args, 'emit-config');
  if (emit) return emitConfig(source, input, emit, args);
  const dryRun = Boolean(args.flags['dry-run']);
  // Log lines go to stderr: stdout carries the report alone, so it can be piped into a file or a program.
  const cms = await createCMS({
    configPath: str(args, 'config') ?? null,
    migrate: dryRun ? 'verify' : 'auto',
    log: { info: console.error, warn: console.error, error: console.error },
  });
  const progress = terminalProgress();
  try {
    const run = await runImport(cms, source, input, args, dryRun, progress.show);
    progress.done();
    process.stdout.write(await finishRun(run, str(args, 'report')));
  } finally {
    progress.done();
    await cms.close();
  }
}

async function runImport(
  cms: CMS,
  source: Source,
  input: string,
  args: CLIArgs,
  dryRun: boolean,
  progress: Progress,
): Promise<ImportRun> {
  if (source === 'wordpress') {
    const { importWordPress } = await import('../moving-in/wordpress-import.ts');
    const uploads = str(args, 'uploads');
    return importWordPress(cms, {
      file: input,
      uploads: uploads && path.resolve(uploads),
      fetchMedia: Boolean(args.flags['fetch-media']),
      dryRun,
      progress,
    });
  }
  if (source === 'markdown') {
    const { importMarkdown } = await import('../moving-in/markdown-import.ts');
    return importMarkdown(cms, {
      dir: input,
      collection: str(args, 'collection'),
      root: str(args, 'root'),
      publicDir: str(args, 'public'),
      dryRun,
      progress,
    });
  }
  const { importPayload } = await import('../moving-in/payload-import.ts');
  return importPayload(cms, {
    url: input,
    key: str(args, 'key'),
    email: str(args, 'email'),
    password: str(args, 'password'),
    dryRun,
    progress,
  });
}

async function emitConfig(source: Source, input: string, file: string, args: CLIArgs): Promise<void> {
  let text: string;
  if (source === 'wordpress') {
    const { readWordPressFile } = await import('../moving-in/wordpress-import.ts');
    const { wordpressConfig } = await import('../moving-in/wordpress-config.ts');
    text = wordpressConfig(await readWordPressFile(input));
  } else if (source === 'markdown') {
    const { markdownConfig } = await import('../moving-in/markdown-config.ts');
    text = await markdownConfig(input, str(args, 'collection'));
  } else throw new ConfigError(`cms import ${source}: --emit-config is for wordpress and markdown`);
  await Bun.write(file, text);
  console.log(`wrote ${path.resolve(file)}; nothing was imported`);
}
