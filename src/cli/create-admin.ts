/** `cms create-admin`: flags, or prompts on a terminal (password not echoed). Works whether or not users exist. */
import { createCMS } from '../create-cms.ts';
import { create } from '../operations/create.ts';
import { createContext } from '../operation-context.ts';
import { APIError, ConfigError } from '../errors.ts';
import { passwordProblem } from '../auth/password.ts';
import type { CLIArgs } from './args.ts';

async function prompt(question: string, hidden = false): Promise<string> {
  const stdin = process.stdin;
  // Echo goes off before the question shows, so a password typed (or pasted) at once is never echoed.
  if (hidden && stdin.isTTY) stdin.setRawMode(true);
  process.stdout.write(question);
  return new Promise((resolve) => {
    let answer = '';
    const onData = (chunk: Buffer) => {
      for (const char of chunk.toString('utf8')) {
        if (char === '\r' || char === '\n') {
          stdin.off('data', onData);
          if (hidden && stdin.isTTY) stdin.setRawMode(false);
          stdin.pause();
          process.stdout.write('\n');
          return resolve(answer);
        }
        if (char === '\u0003') process.exit(130);
        if (char === '\u007f') answer = answer.slice(0, -1);
        else answer += char;
      }
    };
    stdin.resume();
    stdin.on('data', onData);
  });
}

export async function createAdminCommand(args: CLIArgs): Promise<void> {
  let email = args.flags.email as string | undefined;
  let password = args.flags.password as string | undefined;
  let name = args.flags.name as string | undefined;
  const interactive = process.stdin.isTTY;
  if (!email) {
    if (!interactive) throw new ConfigError('create-admin: --email is required (no terminal to ask on)');
    email = await prompt('Email: ');
  }
  if (!password) {
    if (!interactive) throw new ConfigError('create-admin: --password is required (no terminal to ask on)');
    password = await prompt('Password (at least 8 characters): ', true);
    // Typed blind, so typed twice: a typo would otherwise lock the only admin out.
    if ((await prompt('Password again: ', true)) !== password)
      throw new ConfigError('create-admin: the two passwords differ; nothing was created');
  }
  if (name === undefined && interactive && !args.flags.email) name = (await prompt('Name (optional): ')) || undefined;
  const problem = passwordProblem(password);
  if (problem) throw new ConfigError(`create-admin: ${problem}`);

  const cms = await createCMS({ configPath: (args.flags.config as string) ?? null });
  try {
    const ctx = createContext(cms, { overrideAccess: true, via: 'cli' });
    const data: Record<string, unknown> = { email, password, role: 'admin', active: true };
    if (name) data.name = name;
    const user = await create(ctx, { collection: 'users', data, depth: 0 });
    console.log(`created admin ${user.email} (id ${user.id}) in ${cms.config.databaseLabel}`);
  } catch (error) {
    if (error instanceof APIError) {
      const message =
        error.field === 'email' && /unique/i.test(error.message)
          ? `a user with the email ${email} already exists`
          : `${error.field ? `${error.field}: ` : ''}${error.message}`;
      throw new ConfigError(`create-admin: ${message}`);
    }
    throw error;
  } finally {
    await cms.close();
  }
}
