// Runs once (on the SQLite pass): `cms` processes on folders of their own, which always hold a SQLite file.
/**
 * Every command takes only its own flags and positionals: anything else is refused with the command's
 * usage line and exit 1, before the command does any work. `cms export DIR` takes DIR as its folder, like
 * `--out DIR`.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from '../harness.ts';
import { notesProject, runCLI } from '../support/run-cli.ts';

const work = tempDir('cms-cli-arguments-');
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));
const cms = runCLI;
const project = (name: string) => notesProject(work, name);

describe('arguments a command does not take', () => {
  const dir = project('refusals');
  const refused = (args: string[], problem: string, usage: string) => {
    const run = cms(dir, ...args);
    expect(run.code).toBe(1);
    expect(run.out).toBe('');
    expect(run.err).toContain(problem);
    expect(run.err).toContain(`usage: ${usage}`);
  };

  test('an extra positional is refused with the usage line, and nothing is written', () => {
    refused(['export', '../out', 'extra'], 'unexpected argument "extra"', 'cms export [DIR | --out DIR]');
    expect(fs.existsSync(path.join(work, 'out'))).toBe(false);
    refused(['reindex', 'notes'], 'unexpected argument "notes"', 'cms reindex [--collection SLUG]');
    refused(['backup', 'here'], 'unexpected argument "here"', 'cms backup [--out DIR]');
    refused(['serve', 'now'], 'unexpected argument "now"', 'cms [serve]');
    refused(['import', 'a', 'b'], 'unexpected argument "b"', 'cms import DIR');
    refused(['migrate', 'up'], 'unexpected argument "up"', 'cms migrate [--config FILE]');
  });

  test('a flag of another command is refused with the usage line', () => {
    refused(['export', '--email', 'a@b.c'], 'does not take --email', 'cms export');
    refused(['reindex', '--out', 'x'], 'does not take --out', 'cms reindex');
    refused(['create-admin', '--port', '3000'], 'does not take --port', 'cms create-admin');
    refused(['migrate:engine', '--collection', 'notes'], 'does not take --collection', 'cms migrate:engine');
  });

  test('a missing positional is refused with the usage line', () => {
    refused(['import'], 'an argument is missing', 'cms import DIR');
    refused(['restore'], 'an argument is missing', 'cms restore FILE');
  });

  test('a flag no command takes is still one line and exit 1', () => {
    const run = cms(dir, 'export', '--nope');
    expect(run.code).toBe(1);
    expect(run.err).toContain('--nope');
  });
});

test('cms export DIR writes to DIR, as --out DIR does; both at once is refused', async () => {
  const dir = project('export-folder');
  expect(cms(dir, 'migrate:create', 'initial').code).toBe(0);
  expect(cms(dir, 'migrate').code).toBe(0);
  const positional = cms(dir, 'export', '../positional-out');
  expect({ code: positional.code, err: positional.err }).toEqual({ code: 0, err: '' });
  expect(positional.out).toContain(`to ${path.join(work, 'positional-out')}`);
  expect(fs.existsSync(path.join(work, 'positional-out', 'cms-export.json'))).toBe(true);
  expect(fs.existsSync(path.join(dir, 'export'))).toBe(false);

  const both = cms(dir, 'export', '../a', '--out', '../b');
  expect(both.code).toBe(1);
  expect(both.err).toContain('name the folder once');
  expect(fs.existsSync(path.join(work, 'a')) || fs.existsSync(path.join(work, 'b'))).toBe(false);
});
