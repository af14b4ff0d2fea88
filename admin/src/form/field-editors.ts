/**
 * The editor of each field type, in one table: form/editors.tsx fills it once at start, FieldInput and
 * FieldList (form/fields.tsx) read it. So the list that renders fields and the editors that render lists (group,
 * array, relationship drawers) do not import each other.
 */
import type { ComponentType } from 'preact';
import type { Doc, Field } from '../api.ts';
import type { FieldProps } from './form-context.ts';

export interface Editor {
  /** The field type it edits; '*' for every type no other entry takes. */
  type: string;
  /** Only for the fields this accepts (e.g. `hasMany` selects); entries are tried in order. */
  when?: (field: Field) => boolean;
  /** false: the editor draws its own label and error (group, array, checkbox). */
  framed?: boolean;
  /** Each editor narrows the value type for its own field type. */
  component: ComponentType<FieldProps<any>>;
}

/** A layout field (tabs, row, collapsible): it edits the same value as the list it sits in. */
export type LayoutEditor = ComponentType<{ field: Field; path: string; value: Doc; onChange: (value: Doc) => void }>;

const editors: Editor[] = [];
let layout: LayoutEditor | null = null;

/** Sets the table (form/editors.tsx, once, before the first render). */
export function registerEditors(table: Editor[], layoutField: LayoutEditor): void {
  editors.splice(0, editors.length, ...table);
  layout = layoutField;
}

export function editorFor(field: Field): Editor {
  const editor = editors.find((e) => (e.type === field.type || e.type === '*') && (!e.when || e.when(field)));
  if (!editor) throw new Error(`no editor registered for field type "${field.type}" (form/editors.tsx)`);
  return editor;
}

export function layoutEditor(): LayoutEditor {
  if (!layout) throw new Error('no layout editor registered (form/editors.tsx)');
  return layout;
}
