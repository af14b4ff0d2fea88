/**
 * Field hooks (`hooks: { beforeValidate, beforeChange, afterChange, afterRead }` on any field, at any
 * nesting): each gets the field's value with the document, its siblings, the original document, the
 * operation, the user and the request, and answers the value to keep (undefined keeps it as it was).
 * They run on a copy of the document, before the collection's hook of the same name.
 */
import type { FieldHookName, SanitizedField } from '../../config/types.ts';
import { kindOf } from '../../fields/kinds/index.ts';
import { anyFieldInTree } from '../../config/field-tree.ts';
import { withRequest, type OperationContext } from '../../operation-context.ts';

type Doc = Record<string, unknown>;
type Args = { data: Doc; originalDoc: Doc | null; operation: 'create' | 'update' | 'read' };

/** Whether any field of the tree has a hook (answered once per field list). */
export const hasFieldHooks = anyFieldInTree((f) => Boolean(f.hooks && Object.keys(f.hooks).length > 0));

export async function runFieldHooks(
  ctx: OperationContext,
  fields: SanitizedField[],
  name: FieldHookName,
  doc: Doc,
  args: Omit<Args, 'data'> & { data?: Doc },
): Promise<Doc> {
  if (!hasFieldHooks(fields)) return doc;
  const copy = structuredClone(doc);
  await visit(ctx, fields, name, copy, { ...args, data: args.data ?? copy }, '');
  return copy;
}

async function visit(
  ctx: OperationContext,
  fields: SanitizedField[],
  name: FieldHookName,
  sibling: Doc,
  args: Args,
  prefix: string,
): Promise<void> {
  for (const field of fields) {
    const path = prefix ? `${prefix}.${field.name}` : field.name;
    for (const hook of field.hooks?.[name] ?? []) {
      const result = await hook(
        withRequest(ctx, {
          value: sibling[field.name],
          data: args.data,
          siblingData: sibling,
          originalDoc: args.originalDoc,
          operation: args.operation,
          user: ctx.user,
          field,
          path,
        }),
      );
      if (result !== undefined) sibling[field.name] = result;
    }
    for (const nested of kindOf(field).nested(field, sibling[field.name]))
      await visit(ctx, nested.fields, name, nested.value, args, nested.at ? `${path}.${nested.at}` : path);
  }
}
