/**
 * Every field editor of the admin, registered in the one table FieldInput reads (form/field-editors.ts).
 * The larger editors, and those few forms show (more-editors.tsx), come with the chunk of the pages that
 * show forms: main.tsx passes its loader, so this file does not name the views.
 */
import type { Field } from '../api.ts';
import { registerEditors } from './field-editors.ts';
import { CheckboxField, DateInput, NumberInput, SelectInput, TextArea, TextInput } from './fields.tsx';
import { ArrayField, GroupField } from './structure-fields.tsx';
import { MultiSelect, RadioField } from './choice-fields.tsx';
import { LayoutField } from './layout-fields.tsx';
import { JsonField, MarkdownField } from './text-fields.tsx';
import { RichTextField } from './rich-text-field.tsx';
import { lazyComponent } from '../lazy.tsx';

/** An API key's scopes field (`admin.component: 'scopes'`). */
const isScopesField = (f: Field) => f.admin?.component === 'scopes';

/** Fills the table; `more` fetches the chunk that holds more-editors.tsx. */
export function registerFieldEditors(more: () => Promise<typeof import('./more-editors.tsx')>): void {
  const BlocksField = lazyComponent(() => more().then((m) => m.BlocksField));
  const JoinField = lazyComponent(() => more().then((m) => m.JoinField));
  const PointField = lazyComponent(() => more().then((m) => m.PointField));
  const PolymorphicField = lazyComponent(() => more().then((m) => m.PolymorphicField));
  const RelationshipField = lazyComponent(() => more().then((m) => m.RelationshipField));
  const ScopesField = lazyComponent(() => more().then((m) => m.ScopesField));
  const CodeField = lazyComponent(() => more().then((m) => m.CodeField));
  const UploadField = lazyComponent(() => more().then((m) => m.UploadField));
  registerEditors(
    [
      // These draw their own label and error.
      { type: 'group', framed: false, component: GroupField },
      { type: 'array', framed: false, component: ArrayField },
      { type: 'checkbox', framed: false, component: CheckboxField },
      { type: 'blocks', framed: false, component: BlocksField },
      { type: 'radio', framed: false, component: RadioField },
      { type: 'point', framed: false, component: PointField },
      { type: 'join', framed: false, component: JoinField },
      // An API key's scopes: a text field the admin edits as a grid of checkboxes, whatever its type.
      { type: '*', when: isScopesField, component: ScopesField },
      { type: 'textarea', component: TextArea },
      { type: 'markdown', component: MarkdownField },
      { type: 'json', component: JsonField },
      { type: 'richText', component: RichTextField },
      { type: 'number', component: NumberInput },
      { type: 'date', component: DateInput },
      { type: 'select', when: (field) => Boolean(field.hasMany), component: MultiSelect },
      { type: 'select', component: SelectInput },
      { type: 'relationship', when: (field) => Array.isArray(field.relationTo), component: PolymorphicField },
      { type: 'relationship', component: RelationshipField },
      { type: 'code', component: CodeField },
      { type: 'upload', component: UploadField },
      { type: '*', component: TextInput },
    ],
    LayoutField,
  );
}
