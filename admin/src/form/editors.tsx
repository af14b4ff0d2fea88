/** Every field editor of the admin, registered in the one table FieldInput reads (form/field-editors.ts). */
import { registerEditors } from './field-editors.ts'
import { CheckboxField, DateInput, NumberInput, SelectInput, TextArea, TextInput } from './fields.tsx'
import { ArrayField, GroupField } from './structure-fields.tsx'
import { BlocksField } from './blocks-field.tsx'
import { MultiSelect, RadioField } from './choice-fields.tsx'
import { JoinField } from './join-field.tsx'
import { LayoutField } from './layout-fields.tsx'
import { PointField } from './point-field.tsx'
import { PolymorphicField } from './polymorphic-field.tsx'
import { RelationshipField } from './relationship-field.tsx'
import { isScopesField, ScopesField } from './scopes-field.tsx'
import { CodeField, JsonField, MarkdownField } from './text-fields.tsx'
import { UploadField } from './upload-field.tsx'
import { RichTextField } from './rich-text-field.tsx'

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
)
