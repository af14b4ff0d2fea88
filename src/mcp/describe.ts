/** The `describe` tool: the content model and, for each collection and global, what this caller may do. */
import type { Entity, SanitizedField } from '../config/types.ts';
import { preauthorize, type AccessAction } from '../access/check-access.ts';
import type { OperationContext } from '../operation-context.ts';
import { mayPublish } from './publish-right.ts';
import { mayWriteOverMCP } from './write-targets.ts';

async function may(ctx: OperationContext, entity: Entity, action: AccessAction): Promise<boolean> {
  try {
    await preauthorize(ctx, entity, action);
    return true;
  } catch {
    return false;
  }
}

function describeField(field: SanitizedField): Record<string, unknown> {
  const out: Record<string, unknown> = { name: field.name, type: field.type };
  if (field.required) out.required = true;
  if (field.localized) out.localized = true;
  if (field.hasMany) out.hasMany = true;
  if (field.relationTo) out.relationTo = field.relationTo;
  if (field.options) out.options = field.options.map((o) => (typeof o === 'string' ? o : o.value));
  if (field.admin?.readOnly) out.readOnly = true;
  if (typeof field.admin?.description === 'string') out.description = field.admin.description;
  if (field.fields) out.fields = field.fields.filter((f) => !f.hidden).map(describeField);
  return out;
}

async function describeEntity(ctx: OperationContext, entity: Entity): Promise<Record<string, unknown>> {
  const read = await may(ctx, entity, 'read');
  const writes = entity.kind === 'global' || mayWriteOverMCP(entity);
  const update = writes && (await may(ctx, entity, 'update'));
  const publishes = mayPublish(ctx);
  const rights: Record<string, boolean> =
    entity.kind === 'collection'
      ? {
          read,
          create: writes && (await may(ctx, entity, 'create')),
          update,
          delete: writes && publishes && (await may(ctx, entity, 'delete')),
        }
      : { read, update };
  if (entity.drafts) rights.publish = publishes && update;
  const title = entity.kind === 'collection' ? entity.admin?.useAsTitle : undefined;
  return {
    slug: entity.slug,
    drafts: entity.drafts,
    ...(title ? { titleField: title } : {}),
    fields: entity.fields.filter((f) => !f.hidden).map(describeField),
    youMay: rights,
  };
}

export async function describeSite(ctx: OperationContext): Promise<Record<string, unknown>> {
  const { config } = ctx.cms;
  return {
    locales: config.localization
      ? { locales: config.localization.locales, defaultLocale: config.localization.defaultLocale }
      : null,
    collections: await Promise.all(config.collections.map((c) => describeEntity(ctx, c))),
    globals: await Promise.all(config.globals.map((g) => describeEntity(ctx, g))),
    notes: [
      'Drafts collections: create and update save drafts; publish makes the latest draft live.',
      'Relationship and upload fields take document ids ({ relationTo, value } where a field relates to several collections); upload a file with the upload tool first.',
      'Users and API keys are read-only here: accounts and keys are managed in the admin.',
    ],
  };
}
