/** Ends the session a token names; an API key is not a session and stays valid (its owner revokes it). */
import { isApiKey } from '../../auth/api-keys.ts';
import { endSession } from '../../auth/sessions.ts';
import type { OperationContext } from '../../operation-context.ts';

/** `token`: the session token the request carried, valid or not (an unknown one ends nothing). */
export async function logout(ctx: OperationContext, args: { token: string | null | undefined }): Promise<void> {
  if (args.token && !isApiKey(args.token)) await endSession(ctx.cms, args.token);
}
