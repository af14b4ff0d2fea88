/**
 * Checks and coerces incoming field values. Works on one locale's view of the data (or, with
 * `locale: 'all'`, on each locale's value of a localized field). Collects every error before failing.
 */
import type { SanitizedField, User } from '../config/types.ts';
import { kindOf } from './kinds/index.ts';
import type { FieldError } from './kinds/kind.ts';
import { sizeLimitProblem } from './size-limits.ts';
import { toId } from './relationship-values.ts';
import { isStoredField } from '../config/relation-targets.ts';
import { anyFieldInTree } from '../config/field-tree.ts';
import { conditionHolds } from './conditions.ts';

export type { FieldError };
export type ValidateOptions = {
  operation: 'create' | 'update';
  user: User | null;
  id?: number;
  /** The whole document as it will be (for custom validators). */
  data: Record<string, unknown>;
  allLocales?: string[] | null;
  /**
   * A save that only makes a draft: types and shapes are checked, but not `required`, `minRows` or custom
   * `validate` functions, so an unfinished document can be kept; publishing checks them (`publishProblems`).
   */
  draft?: boolean;
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isEmpty = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/** Validates `input` against `fields`; returns coerced values (only for keys present) and the errors found. */
export async function validateFields(
  fields: SanitizedField[],
  input: Record<string, unknown>,
  options: ValidateOptions,
  prefix = '',
  requireAll = options.operation === 'create',
): Promise<{ values: Record<string, unknown>; errors: FieldError[] }> {
  const values: Record<string, unknown> = {};
  const errors: FieldError[] = [];
  for (const field of fields) {
    const key = prefix ? `${prefix}.${field.name}` : field.name;
    // Join and virtual values are never written: what a client sends for them is dropped.
    if (!isStoredField(field)) continue;
    if (!conditionHolds(field, options.data, prefix ? input : options.data)) {
      // Hidden by its condition: not validated; a valid value sent anyway is kept, an invalid one dropped.
      if (field.name in input && !field.localized) {
        const result = await validateValue({ ...field, required: false }, input[field.name], options, key, input);
        if (result.errors.length === 0) values[field.name] = result.value;
      }
      continue;
    }
    const present = field.name in input;
    if (!present) {
      if (requireAll && field.required && !options.draft)
        errors.push({ field: key, message: 'This field is required.' });
      continue;
    }
    const raw = input[field.name];
    if (field.localized && options.allLocales) {
      if (!isObject(raw)) {
        errors.push({ field: key, message: 'With locale=all, a localized field takes an object keyed by locale.' });
        continue;
      }
      const out: Record<string, unknown> = {};
      for (const [locale, value] of Object.entries(raw)) {
        if (!options.allLocales.includes(locale)) {
          errors.push({ field: `${key}.${locale}`, message: `Unknown locale "${locale}".` });
          continue;
        }
        const result = await validateValue(field, value, options, `${key}.${locale}`, input);
        errors.push(...result.errors);
        out[locale] = result.value;
      }
      values[field.name] = out;
      continue;
    }
    const result = await validateValue(field, raw, options, key, input);
    errors.push(...result.errors);
    values[field.name] = result.value;
  }
  return { values, errors };
}

async function validateValue(
  field: SanitizedField,
  raw: unknown,
  options: ValidateOptions,
  key: string,
  siblingData: Record<string, unknown>,
): Promise<{ value: unknown; errors: FieldError[] }> {
  const fail = (message: string) => ({ value: raw, errors: [{ field: key, message }] });
  if (isEmpty(raw) && !(field.type === 'checkbox' && raw === false)) {
    if (field.required && !options.draft) return fail('This field is required.');
    if (field.minRows && !options.draft && (field.type === 'array' || field.type === 'blocks'))
      return fail(`This field needs at least ${field.minRows} rows.`);
    return {
      value:
        field.hasMany || field.type === 'array' || field.type === 'blocks'
          ? raw === null
            ? null
            : (raw ?? null)
          : null,
      errors: [],
    };
  }
  const tooLarge = sizeLimitProblem(field, raw);
  if (tooLarge) return fail(tooLarge);
  const { value, errors } = await kindOf(field).check(field, raw, {
    key,
    operation: options.operation,
    draft: Boolean(options.draft),
    validateFields: (fields, input, at, requireAll) => validateFields(fields, input, options, at, requireAll),
  });
  if (errors.length === 0 && field.validate && !options.draft) {
    const verdict = await field.validate(value, {
      data: options.data,
      siblingData,
      operation: options.operation,
      user: options.user,
      id: options.id,
    });
    if (verdict !== true)
      errors.push({ field: key, message: typeof verdict === 'string' ? verdict : 'This value is not valid.' });
  }
  return { value, errors };
}

export { toId };

/** What a publish check needs beyond the document: who publishes, and the top-level fields this request sent. */
export type PublishCheck = { user: User | null; id?: number; sent: Set<string>; insideSent?: boolean };

/**
 * What keeps a whole stored document (all locales; a localized value is read in `locale`) from going live:
 * empty required fields, too few rows, and custom `validate` functions that refuse. A save checks only the
 * fields it sends, and a draft skips these checks, so a never-saved global or a draft could otherwise be
 * published unfinished. Fields this request sent were already validated whole; their `validate` is not run twice.
 */
export async function publishProblems(
  fields: SanitizedField[],
  doc: Record<string, unknown>,
  locale: string | null,
  check: PublishCheck,
  prefix = '',
  root = doc,
): Promise<FieldError[]> {
  const errors: FieldError[] = [];
  // A tree with nothing to check (the usual layout of blocks) is not walked row by row on every save.
  if (!hasPublishChecks(fields)) return errors;
  for (const field of fields) {
    const key = prefix ? `${prefix}.${field.name}` : field.name;
    if (!isStoredField(field) || !conditionHolds(field, root, doc)) continue;
    let value = doc[field.name];
    if (field.localized && locale && isObject(value)) value = value[locale];
    if (isEmpty(value) && !(field.type === 'checkbox' && value === false)) {
      if (field.required) errors.push({ field: key, message: 'This field is required.' });
      continue;
    }
    const sentWhole = check.insideSent || (prefix === '' && check.sent.has(field.name));
    const inner = sentWhole ? { ...check, insideSent: true } : check;
    const rows = (field.type === 'array' || field.type === 'blocks') && Array.isArray(value) ? value : null;
    if (rows && field.minRows !== undefined && rows.length < field.minRows)
      errors.push({ field: key, message: `This field needs at least ${field.minRows} rows.` });
    for (const nested of kindOf(field).nested(field, value)) {
      const at = nested.at ? `${key}.${nested.at}` : key;
      errors.push(...(await publishProblems(nested.fields, nested.value, locale, inner, at, root)));
    }
    if (field.validate && !sentWhole) {
      const verdict = await field.validate(value, {
        data: root,
        siblingData: doc,
        operation: 'update',
        user: check.user,
        id: check.id,
      });
      if (verdict !== true)
        errors.push({ field: key, message: typeof verdict === 'string' ? verdict : 'This value is not valid.' });
    }
  }
  return errors;
}

/** Whether a field of the tree asks anything of a publish: `required`, `minRows` or a `validate`. */
const hasPublishChecks = anyFieldInTree(
  (f) => Boolean(f.required) || f.minRows !== undefined || f.validate !== undefined,
);
