/** Creates a document: authorize → prepare (hooks, validation) → persist and announce in one transaction → afterChange → present. */
import { docToRow, rowToDoc } from '../fields/row.ts';
import { insertRow } from '../db/documents.ts';
import { inTransaction } from '../db/transaction.ts';
import { forbidden } from '../errors.ts';
import { isoNow } from '../clock.ts';
import { checkAccess } from '../access/check-access.ts';
import { getCollection } from './steps/entities.ts';
import { prepareWrite } from './steps/prepare-write.ts';
import { runHooks } from './steps/hooks.ts';
import { runFieldHooks } from './steps/field-hooks.ts';
import { presentDoc } from './steps/present.ts';
import { statusEvents } from './steps/status-events.ts';
import { recordLiveVersion, savesOnlyDraft } from '../versions/drafts.ts';
import { ownerOf } from '../versions/live-row.ts';
import { originOf, stampOf, type OperationContext } from '../operation-context.ts';
import { inviteNewUser } from '../auth/password-reset.ts';

export type CreateArgs = {
  collection: string;
  data: unknown;
  depth?: number;
  draft?: boolean;
  internal?: boolean;
  /** The first admin: refused (403) unless the users table is still empty when the row is written. */
  firstUser?: boolean;
  /** An import keeps the source's id and creation time (docs/moving-in.md); never taken from a request. */
  keep?: { id?: number; createdAt?: string };
};

export async function create(ctx: OperationContext, args: CreateArgs): Promise<Record<string, unknown>> {
  const collection = getCollection(ctx.cms, args.collection);
  await checkAccess(ctx, collection, 'create', { data: args.data as Record<string, unknown> });
  const prepared = await prepareWrite(ctx, collection, args.data, {
    operation: 'create',
    existing: null,
    internal: args.internal,
    draft: args.draft,
  });
  const now = isoNow(ctx.cms.clock);
  const stored = { ...prepared.stored };
  const onlyDraft = savesOnlyDraft(collection, args.draft, prepared.status);
  if (collection.drafts) stored.status = onlyDraft ? 'draft' : (prepared.status ?? 'draft');

  const doc = await inTransaction(
    ctx.cms.store,
    ctx.cms.events,
    async (scope) => {
      const { tx } = scope;
      // Checked inside the write's transaction, with the table locked, so two processes cannot both make a first admin.
      if (args.firstUser) {
        await tx.lockTable(collection.table);
        if (await tx.get('SELECT 1 AS "found" FROM "users" LIMIT 1'))
          throw forbidden('An admin already exists. Log in instead.');
      }
      const saved = rowToDoc(
        collection,
        await insertRow(tx, collection, {
          ...docToRow(collection, stored, tx.dialect),
          ...prepared.system,
          ...(args.keep?.id === undefined ? {} : { id: args.keep.id }),
          createdAt: args.keep?.createdAt ?? now,
          updatedAt: now,
        }),
      );
      const id = saved.id as number;
      if (collection.drafts) await recordLiveVersion(tx, ownerOf(collection, id), saved, stampOf(ctx, now));
      const event = { collection: collection.slug, id, doc: saved, previousDoc: null, timestamp: now };
      await scope.emit({ ...event, type: onlyDraft ? 'draft' : 'create' });
      for (const type of statusEvents(null, saved)) await scope.emit({ ...event, type });
      return saved;
    },
    originOf(ctx),
  );

  const fieldsChanged = await runFieldHooks(ctx, collection.fields, 'afterChange', doc, {
    originalDoc: null,
    operation: 'create',
  });
  const changed = await runHooks(ctx, collection, 'afterChange', 'doc', {
    doc: fieldsChanged,
    previousDoc: null,
    operation: 'create',
    id: doc.id as number,
  });
  const presented = await presentDoc(ctx, collection, changed, args.depth ?? 1);
  const invited =
    collection.builtIn === 'users' && !prepared.system.passwordHash
      ? await inviteNewUser(ctx, { id: doc.id as number, email: doc.email as string })
      : undefined;
  const reveal = { ...prepared.reveal, ...invited };
  return Object.keys(reveal).length ? { ...presented, ...reveal } : presented;
}
