/**
 * A version's `author`: who saved it, populated to `{ id, email, name }` for a reader who may read that
 * user (through the users collection's own read access, field rules and API-key scopes), else the bare
 * id; null for the system. One query for every author on the page.
 */
import { APIError } from '../../errors.ts';
import { USERS_SLUG } from '../../config/builtin-collections.ts';
import type { OperationContext } from '../../operation-context.ts';
import { find } from '../find.ts';

export type VersionAuthor = number | { id: number; email: unknown; name: unknown } | null;

export async function presentAuthors(ctx: OperationContext, ids: (number | null)[]): Promise<VersionAuthor[]> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  const readable = new Map<number, Record<string, unknown>>();
  if (wanted.length) {
    try {
      const users = await find(ctx, {
        collection: USERS_SLUG,
        where: { id: { in: wanted } },
        depth: 0,
        pagination: false,
      });
      for (const user of users.docs) readable.set(user.id as number, user);
    } catch (error) {
      // Not allowed to read users at all (no session, an API key without `users:read`): ids only.
      if (!(error instanceof APIError && (error.status === 401 || error.status === 403))) throw error;
    }
  }
  return ids.map((id) => {
    if (id === null) return null;
    const user = readable.get(id);
    return user ? { id, email: user.email ?? null, name: user.name ?? null } : id;
  });
}
