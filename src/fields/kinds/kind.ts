/**
 * What one field type knows, in one place: how a written value is checked and stored, its JSON Schema as
 * read and as written, its GraphQL and TypeScript types, how an upload form's text part is read, and which
 * nested values it holds. Each type has its own file beside this one; `index.ts` gathers them in a record keyed
 * by every field type, so adding a type without a kind does not compile. Whatever a kind needs of the
 * layer that asks (the whole document's schema, the recursion of validation) it receives as a kit, so
 * kinds import no layer above `fields/`.
 */
import type { SanitizedBlock, SanitizedField } from '../../config/types.ts';

export type Doc = Record<string, unknown>;
export type FieldError = { message: string; field: string };
/** A checked value as it will be stored, and what is wrong with it (nothing: valid). */
export type Checked = { value: unknown; errors: FieldError[] };

export type CheckKit = {
  /** The field's path in the document (`layout.2.title`), which errors name. */
  key: string;
  operation: 'create' | 'update';
  /** A draft save: shapes are checked, `required` and row minimums are left to publishing. */
  draft: boolean;
  /** Checks the fields of a nested object (a group, a row) with the same options; `requireAll` on a new object. */
  validateFields(
    fields: SanitizedField[],
    input: Doc,
    at: string,
    requireAll: boolean,
  ): Promise<{ values: Doc; errors: FieldError[] }>;
};

export type Schema = Record<string, unknown>;
/**
 * What a field's JSON Schema needs of the document schema around it. `strict` is for the MCP tools' inputs:
 * every bound the server enforces that a sender may check first, objects closed to other keys, and only
 * what every function-calling format takes (`anyOf` rather than `oneOf`, `items` on every array).
 */
export type SchemaKit = {
  mode: 'read' | 'write';
  strict: boolean;
  /** The object of nested fields: a `row` of an array or blocks, or a `group`; `extra` keys come first. */
  objectOf(
    fields: SanitizedField[],
    role: 'row' | 'group',
    extra?: Record<string, Schema>,
    required?: string[],
  ): Schema;
  /** A read's related document, by the schema name of its collection. */
  document(slug: string): Schema;
};

/** `doc` as read, `allLocales` as read with `locale: 'all'`, `data` as written. */
export type TypeVariant = 'doc' | 'allLocales' | 'data';
export type TypeKit = {
  variant: TypeVariant;
  /** The object type of nested fields one level deeper; `extra` members come first. */
  objectType(fields: SanitizedField[], extra?: string[]): string;
  /** One block's row type (or its interface name). */
  blockType(block: SanitizedBlock): string;
  /** The type name of a collection's document. */
  nameOf(slug: string): string;
};

/** Where-operator groups a GraphQL filter offers on a scalar (graphql/operators.ts spells them out). */
export type OperatorGroup = 'equality' | 'comparison' | 'partial' | 'lists' | 'like' | 'near';
/**
 * How GraphQL maps a kind: a scalar and the where operators it offers (graphql/field-types.ts), or one of
 * the shapes each schema builder maps (options as an enum, a relation, rows, a group, blocks, a join, rich
 * text, layout): graphql/output-fields.ts, mutation-inputs.ts and where-inputs.ts.
 */
export type GraphQLKind =
  | { scalar: 'String' | 'Float' | 'Boolean' | 'JSON' | 'DateTime' | 'EmailAddress'; operators: OperatorGroup[] }
  | { shape: 'select' | 'radio' | 'relationship' | 'array' | 'group' | 'blocks' | 'join' | 'richText' | 'layout' };

/** An object held inside a value (a group's, an array's or blocks field's row) and its path below the field ('' for a group). */
export type NestedValue = { fields: SanitizedField[]; value: Doc; at: string };

export interface Kind {
  /** `value`: holds a value of its own; `read`: read only (a join); `layout`: arranges others, holds none. */
  holds: 'value' | 'read' | 'layout';
  /**
   * How large one value may be unless the field says otherwise (docs/config.md, "Size limits"): characters
   * of text (`maxLength`, each item of a list) or bytes of its JSON (`maxSize`); none: unbounded but for
   * the whole document's bound.
   */
  sizeLimit?: { chars: number } | { bytes: number };
  /** Checks a non-empty written value and answers it as stored. */
  check(field: SanitizedField, raw: unknown, kit: CheckKit): Checked | Promise<Checked>;
  /** The JSON Schema of one value (a list where the field takes `hasMany`). */
  schema(field: SanitizedField, kit: SchemaKit): Schema;
  /** What to send, said for an assistant (the MCP tools' inputs). */
  describe(field: SanitizedField): string;
  /** Its GraphQL type. */
  graphQL: GraphQLKind;
  /**
   * How a where filter reads and compares its values (query/field-target.ts): as numbers, booleans,
   * document ids, dates or points; text when not said.
   */
  whereAs?: 'id' | 'date' | 'number' | 'boolean' | 'point';
  /** The TypeScript type of one value. */
  tsType(field: SanitizedField, kit: TypeKit): string;
  /** A text part of an upload form as the value a JSON body would carry (validation follows as for JSON). */
  fromForm(field: SanitizedField, text: string): unknown;
  /** The objects nested in a value, for walkers that visit every value of a document. */
  nested(field: SanitizedField, value: unknown): NestedValue[];
}

export const isObject = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);
export const valid = (value: unknown): Checked => ({ value, errors: [] });
export const invalid = (raw: unknown, kit: { key: string }, message: string): Checked => ({
  value: raw,
  errors: [{ field: kit.key, message }],
});
export const noNested = (): NestedValue[] => [];
export const literal = (value: string) => JSON.stringify(value);

/** Form parts of structured values (JSON, rows, points, rich text) are JSON text; what does not parse is kept as text. */
export function formJSON(_field: SanitizedField, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Form parts of values other than free text: an empty part is no value, else `convert` reads it. */
export const formScalar =
  (convert: (text: string) => unknown = (text) => text) =>
  (_field: SanitizedField, text: string): unknown =>
    text === '' ? null : convert(text);

/** `hasMany` values are a list however they are sent; one schema or type per item is listed then. */
export const manySchema = (field: SanitizedField, one: Schema): Schema =>
  field.hasMany ? { type: 'array', items: one } : one;

/** Alternatives of which exactly one matches (`anyOf` where the schema is strict: see SchemaKit). */
export const oneOf = (kit: SchemaKit, schemas: Schema[]): Schema => ({ [kit.strict ? 'anyOf' : 'oneOf']: schemas });
