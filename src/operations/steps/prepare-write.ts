/**
 * The steps every create and update shares, top to bottom: the built-in collection's write rule
 * (builtin-write-rules.ts), field access, beforeValidate, defaults, validation, relationship targets,
 * beforeChange, the built-in collection's check, then the merge into the stored (all-locale) document.
 */
import { APIError, badRequest } from '../../errors.ts';
import type { Entity, SanitizedField } from '../../config/types.ts';
import { isUploadCollection } from '../../config/upload-collections.ts';
import { publishProblems, validateFields, type FieldError } from '../../fields/validate.ts';
import { documentSizeProblem } from '../../fields/size-limits.ts';
import { mergeLocalizedWrite } from '../../fields/localize.ts';
import { withDefaults } from '../../fields/defaults.ts';
import { relationProblems } from './relation-checks.ts';
import { fieldAllowed } from '../../access/check-access.ts';
import { runHooks } from './hooks.ts';
import { runFieldHooks } from './field-hooks.ts';
import { BUILT_IN_WRITE_CHECKS, BUILT_IN_WRITE_RULES, uploadWriteRule } from './builtin-write-rules.ts';
import { singleLocaleOf, type OperationContext } from '../../operation-context.ts';

type Doc = Record<string, unknown>;
export type PreparedWrite = {
  /** The merged stored document (all locales) to persist, without id and timestamps. */
  stored: Doc;
  /** Values for system columns (password hash). */
  system: Doc;
  /** `status` asked for by the request (drafts collections and globals). */
  status?: string;
  /** Shown once in the answer and never stored (a new API key). */
  reveal?: Doc;
  /** The top-level fields this save sent and validated. */
  sent: Set<string>;
};

const isObject = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);

export async function prepareWrite(
  ctx: OperationContext,
  entity: Entity,
  input: unknown,
  options: {
    operation: 'create' | 'update';
    existing: Doc | null;
    id?: number;
    internal?: boolean;
    /** The request saves a draft (`draft=true`): unless it publishes, validation is the draft's. */
    draft?: boolean;
    /** An autosave: always only a draft. */
    autosave?: boolean;
  },
): Promise<PreparedWrite> {
  if (!isObject(input)) throw badRequest('The request body must be a JSON object.');
  const { operation, existing, id } = options;
  let data: Doc = { ...input };
  let status: string | undefined;

  delete data.id;
  delete data.createdAt;
  delete data.updatedAt;
  // Only deleting and restoring move a document in or out of the trash (trash.ts).
  delete data.deletedAt;
  // Payload's clients send `_status`; it is an alias of `status` (docs/payload-compatibility.md), and `status` wins when both come.
  if ('_status' in data && entity.drafts) {
    if (!('status' in data)) data.status = data._status;
    delete data._status;
  }
  if ('status' in data && entity.drafts) {
    if (data.status !== 'draft' && data.status !== 'published')
      throw badRequest('status must be "draft" or "published".', 'status');
    status = data.status;
    delete data.status;
  }
  const rule = entity.kind === 'collection' && entity.builtIn ? BUILT_IN_WRITE_RULES[entity.builtIn] : undefined;
  const { system = {}, reveal } = rule ? await rule(data, { operation, internal: options.internal }) : {};
  if (isUploadCollection(entity)) uploadWriteRule(entity.slug, data, { operation, internal: options.internal });
  data = await dropDeniedFields(ctx, entity.fields, data, operation, existing, id);

  data = await runFieldHooks(ctx, entity.fields, 'beforeValidate', data, { originalDoc: existing, operation });
  data = await runHooks(ctx, entity, 'beforeValidate', 'data', { data, originalDoc: existing, operation, id });
  if (operation === 'create') data = applyDefaults(ctx, entity.fields, data);

  const allLocales = ctx.locale === 'all' ? (ctx.cms.config.localization?.locales ?? null) : null;
  const { values, errors } = await validateFields(entity.fields, data, {
    operation,
    user: ctx.user,
    id,
    data: { ...existing, ...data },
    allLocales,
    draft: validatesAsDraft(entity, options, status),
  });
  errors.push(...(await relationProblems(ctx, entity.fields, values, { ...existing, ...values }, id)));
  const tooLarge = errors.length ? null : documentSizeProblem({ ...existing, ...values }, entity.maxDocumentSize);
  if (tooLarge) errors.push(tooLarge);
  if (errors.length) throw validationError(errors);

  // beforeChange hooks see the status the save asks for, in both spellings, as Payload's do (a hook that
  // stamps `publishedAt` when `siblingData._status` is 'published'); the status itself is set by the save.
  const asked = status ? { status, _status: status } : {};
  const hooked = await runFieldHooks(
    ctx,
    entity.fields,
    'beforeChange',
    { ...values, ...asked },
    { originalDoc: existing, operation },
  );
  const result = await runHooks(ctx, entity, 'beforeChange', 'data', {
    data: hooked,
    originalDoc: existing,
    operation,
    id,
  });
  // Only the status given to the hooks goes back out: without drafts a field may be called `status`.
  const { status: _s, _status: _a, ...withoutAsked } = result;
  const changed = status ? withoutAsked : result;
  if (entity.kind === 'collection' && entity.builtIn)
    await BUILT_IN_WRITE_CHECKS[entity.builtIn]?.(ctx, entity, changed, id);
  // Hooks may answer a date as a Date (Payload's do): it is kept as its ISO string, like a date sent as JSON.
  for (const [key, value] of Object.entries(changed)) if (value instanceof Date) changed[key] = value.toISOString();
  const stored = mergeLocalizedWrite(entity.fields, changed, existing, ctx.locale);
  return { stored, system, status, reveal, sent: new Set(Object.keys(values)) };
}

/** A draft save skips `required`, `minRows`, `unique` and custom checks, unless the entity asks drafts to validate. */
function validatesAsDraft(
  entity: Entity,
  save: { draft?: boolean; autosave?: boolean },
  status: string | undefined,
): boolean {
  return Boolean(entity.drafts && !entity.validateDrafts && (save.autosave || (save.draft && status !== 'published')));
}

/**
 * An update that makes what is live (any save without drafts, else one whose result is published and not
 * only a draft) must leave the whole document valid, read in the request's locale else the default: no
 * required field empty, no list below its `minRows`, no custom `validate` refusing (a save validates only
 * the fields it sends, and drafts skip these). `stored` carries the resulting status.
 */
export async function assertPublishable(
  ctx: OperationContext,
  entity: Entity,
  stored: Doc,
  onlyDraft: boolean,
  check: { sent: Set<string>; id?: number },
): Promise<void> {
  if (onlyDraft || (entity.drafts && stored.status !== 'published')) return;
  const locale = ctx.cms.config.localization ? singleLocaleOf(ctx)! : null;
  const problems = await publishProblems(entity.fields, stored, locale, { ...check, user: ctx.user });
  if (problems.length) throw validationError(problems);
}

export function validationError(errors: FieldError[]): APIError {
  return new APIError(400, errors[0].message, errors[0].field, { errors });
}

async function dropDeniedFields(
  ctx: OperationContext,
  fields: SanitizedField[],
  data: Doc,
  operation: 'create' | 'update',
  existing: Doc | null,
  id?: number,
): Promise<Doc> {
  if (ctx.overrideAccess) return data;
  const out = { ...data };
  for (const field of fields) {
    if (!(field.name in out)) continue;
    const rule = field.access?.[operation];
    if (rule && !(await fieldAllowed(ctx, rule, { id, data, doc: existing ?? undefined }))) delete out[field.name];
  }
  return out;
}

/** A create's missing values with defaults, at any depth (fields/defaults.ts). */
function applyDefaults(ctx: OperationContext, fields: SanitizedField[], data: Doc): Doc {
  // With locale=all the body is in the stored shape, where a default belongs to the default locale.
  const storeLocale = ctx.locale === 'all' ? ctx.cms.config.localization!.defaultLocale : null;
  return withDefaults(fields, data, { user: ctx.user, locale: ctx.locale ?? undefined }, storeLocale);
}
