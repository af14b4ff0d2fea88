/**
 * The editors' document lock of one document or global (docs/content-model.md, "Editing together"): read it,
 * take or renew it (or take it over), release it. The admin uses these; REST writes are never blocked by a lock.
 */
import { ref } from './components.ts';
import { json, operation, type Paths } from './operation.ts';

const tokenHeader = {
  name: 'x-cms-lock-token',
  in: 'header',
  required: false,
  schema: { type: 'string' },
  description: 'The token the lock was taken with: renews or releases it, and answers `mine: true`.',
};

const answer = (lock: Record<string, unknown>) => json({ type: 'object', required: ['lock'], properties: { lock } });

export function lockPaths(base: string, tags: string[], target: unknown[]): Paths {
  const path = `${base}/lock`;
  const parameters = [...target, tokenHeader];
  return {
    [path]: {
      get: operation('get', path, {
        summary: 'Who is editing it, if anyone (signed-in users who may update it)',
        tags,
        parameters,
        ok: { 200: answer({ anyOf: [ref('Lock'), { type: 'null' }] }) },
        errors: [401, 403, 404],
      }),
      post: operation('post', path, {
        summary: 'Take the lock, renew it (heartbeat), or take it over with `{ takeover: true }`',
        tags,
        parameters,
        body: { type: 'object', properties: { takeover: { type: 'boolean' } } },
        ok: { 200: answer(ref('Lock')) },
        errors: [401, 403, 404, 409],
      }),
      delete: operation('delete', path, {
        summary: 'Release the lock',
        tags,
        parameters,
        ok: { 200: answer({ type: 'null' }) },
        errors: [401, 403, 404, 409],
      }),
    },
  };
}
