/**
 * The first admin (`POST /users/first-register`): only while there are no users (checked again inside the
 * insert's transaction), and signed in at once. Nobody could invite the first admin: it needs its password now.
 */
import { APIError, forbidden } from '../../errors.ts';
import { createSession, type SessionClient } from '../../auth/sessions.ts';
import { createContext, type OperationContext } from '../../operation-context.ts';
import { create } from '../create.ts';
import { countUsers, type LoginResult } from '../login.ts';

export type FirstAdminArgs = { data: { email?: unknown; password?: unknown; name?: unknown }; client?: SessionClient };

export async function registerFirstAdmin(ctx: OperationContext, args: FirstAdminArgs): Promise<LoginResult> {
  const { cms } = ctx;
  const { data, client = {} } = args;
  if ((await countUsers(cms)) > 0) throw forbidden('An admin already exists. Log in instead.');
  if (data.password === undefined) throw new APIError(400, 'This field is required.', 'password');
  const asSystem = createContext(cms, { overrideAccess: true, via: ctx.via, ip: client.ip ?? null });
  const payload: Record<string, unknown> = { email: data.email, password: data.password, role: 'admin', active: true };
  if (data.name !== undefined) payload.name = data.name;
  const doc = await create(asSystem, { collection: 'users', data: payload, depth: 0, firstUser: true });
  const session = await createSession(cms, doc.id as number, client);
  return { user: doc, session };
}
