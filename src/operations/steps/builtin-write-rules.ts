/**
 * What a write to a built-in collection does besides the config's own fields, one rule per collection,
 * run by prepareWrite before field access and the hooks. A rule may change `data` in place; it answers
 * values for system columns and what the answer shows once. A check per collection runs once the hooks
 * have had their say, on what will be stored; a store rule runs inside the write's transaction, around
 * the row's write and after it.
 */
import { badRequest } from '../../errors.ts';
import type { SanitizedCollection } from '../../config/types.ts';
import { MEDIA_SYSTEM_FIELDS } from '../../config/upload-collections.ts';
import { hashPassword, passwordProblem } from '../../auth/password.ts';
import { generateApiKey } from '../../auth/api-keys.ts';
import { hashToken } from '../../auth/sessions.ts';
import { FOLDER_FIELD } from '../../config/builtin-collections.ts';
import { assertFolderPlacement } from '../folders.ts';
import type { OperationContext } from '../../operation-context.ts';
import type { Queryable } from '../../db/store.ts';
import { endSessionsOnUserChange, guardLastActiveAdmin } from '../../auth/user-invariants.ts';
import { forgetAccount } from '../../auth/forget-account.ts';

type Doc = Record<string, unknown>;
type WriteRule = (
  data: Doc,
  write: { operation: 'create' | 'update'; internal?: boolean },
) => Promise<{ system?: Doc; reveal?: Doc }>;

// `mcp:publish` lets an assistant over MCP publish, unpublish, schedule and delete (docs/mcp.md).
const SCOPE = /^(\*|mcp:publish|[a-z][a-z0-9_-]*:(\*|read|create|update|delete))$/;

export const BUILT_IN_WRITE_RULES: Partial<Record<NonNullable<SanitizedCollection['builtIn']>, WriteRule>> = {
  /** A password is checked and stored only as its hash; emails are compared lower-case. */
  async users(data) {
    const system: Doc = {};
    if ('password' in data) {
      const problem = passwordProblem(data.password);
      if (problem) throw badRequest(problem, 'password');
      system.passwordHash = await hashPassword(data.password as string);
    }
    // A user created without a password is invited: create.ts hands out the link that sets one.
    delete data.password;
    if (typeof data.email === 'string') data.email = data.email.trim().toLowerCase();
    return { system };
  },

  /** A new key is made here, stored as its hash and shown once; scopes must be well formed. */
  async 'api-keys'(data, { operation }) {
    if ('scopes' in data) assertScopes(data.scopes);
    delete data.prefix;
    if (operation !== 'create') return {};
    const key = generateApiKey();
    data.prefix = key.slice(0, 10);
    return { system: { keyHash: hashToken(key) }, reveal: { key } };
  },
};

type WriteCheck = (ctx: OperationContext, collection: SanitizedCollection, data: Doc, id?: number) => Promise<void>;

export const BUILT_IN_WRITE_CHECKS: Partial<Record<NonNullable<SanitizedCollection['builtIn']>, WriteCheck>> = {
  /** A folder moved never lands inside itself or one of its own sub-folders. */
  async folders(ctx, folders, data, id) {
    if (id !== undefined) await assertFolderPlacement(ctx, folders, id, data[FOLDER_FIELD]);
  },
};

type StoreRule = {
  /** Runs the row's write (an update's or a delete's), checking around it in the same transaction. */
  write?: (tx: Queryable, write: () => Promise<void>) => Promise<void>;
  /** After an update's row is written, in the same transaction: what follows from the change. */
  updated?: (tx: Queryable, change: { id: number; previous: Doc; saved: Doc; system: Doc }) => Promise<void>;
  /** After a delete's row is gone, in the same transaction: what must not outlive the document. */
  deleted?: (tx: Queryable, id: number) => Promise<void>;
};

const BUILT_IN_STORE_RULES: Partial<Record<NonNullable<SanitizedCollection['builtIn']>, StoreRule>> = {
  /**
   * No write leaves the site without an active admin; deactivation or a new password ends the user's
   * sessions; a deleted user leaves no sessions, second factor or reset tokens behind.
   */
  users: {
    write: guardLastActiveAdmin,
    updated: (tx, { id, previous, saved, system }) =>
      endSessionsOnUserChange(tx, id, previous, saved, Boolean(system.passwordHash)),
    deleted: forgetAccount,
  },
};

export const storeRuleOf = (collection: SanitizedCollection): StoreRule | undefined =>
  collection.builtIn ? BUILT_IN_STORE_RULES[collection.builtIn] : undefined;

/** Documents of upload collections come from uploads; the fields the upload sets cannot be written (except by the upload). */
export function uploadWriteRule(
  slug: string,
  data: Doc,
  { operation, internal }: { operation: 'create' | 'update'; internal?: boolean },
): void {
  if (internal) return;
  if (operation === 'create')
    throw badRequest(
      `A ${slug} document is created by uploading a file (POST /${slug} as multipart/form-data, or upload()).`,
      'file',
    );
  for (const key of Object.keys(data)) {
    if (MEDIA_SYSTEM_FIELDS.has(key)) throw badRequest(`"${key}" is set by the upload and cannot be changed.`, key);
  }
}

function assertScopes(scopes: unknown): void {
  if (!Array.isArray(scopes) || scopes.length === 0 || !scopes.every((s) => typeof s === 'string' && SCOPE.test(s))) {
    throw badRequest('scopes must be a non-empty list like ["posts:read", "media:*"] or ["*"].', 'scopes');
  }
}
