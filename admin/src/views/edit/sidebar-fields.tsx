/** Fields with `admin.position: 'sidebar'`, beside the document's details (collections and globals alike). */
import type { Field } from '../../api.ts';
import type { DocumentFormState } from '../../form/document-form.tsx';
import { FieldList } from '../../form/fields.tsx';
import { FormContext, type FormState } from '../../form/form-context.ts';
import { t } from '../../i18n/i18n.ts';

export function SidebarFields(props: { fields: Field[]; form: DocumentFormState; context: FormState }) {
  if (!props.fields.some((f) => f.admin?.position === 'sidebar')) return null;
  return (
    <section class="panel sidebar-fields" aria-label={t('edit.moreFields')}>
      <FormContext.Provider value={props.context}>
        <FieldList fields={props.fields} store={props.form.store} writer={props.form.writer} position="sidebar" />
      </FormContext.Provider>
    </section>
  );
}
