/**
 * The column beside a stored document's form: its sidebar fields, its details (id, status, dates), the
 * account panels of a user, and, where the collection has drafts, its schedule and versions.
 */
import { useCallback, useMemo, useRef } from 'preact/hooks';
import { docs, type CollectionConfig, type Doc, type Field } from '../../api.ts';
import { isAdmin, useApp } from '../../app-context.ts';
import type { DocumentFormState } from '../../form/document-form.tsx';
import type { FormState } from '../../form/form-context.ts';
import { renderOnChange } from '../../form/fields.tsx';
import { docLabel, formatDate } from '../../format.ts';
import { StatusBadges } from './status-badges.tsx';
import { LanguagePicker } from '../account/language-picker.tsx';
import { SchedulePanel } from './schedule-panel.tsx';
import { SidebarFields } from './sidebar-fields.tsx';
import { UserAccountPanel } from '../account/user-account-panel.tsx';
import { VersionsPanel } from './versions-panel.tsx';
import { t } from '../../i18n/i18n.ts';

// The panels below render again only when their own props changed: typing in the form leaves them alone.
const Schedule = renderOnChange(SchedulePanel);
const Versions = renderOnChange(VersionsPanel);

export function DocumentAside(props: {
  c: CollectionConfig;
  id: string;
  doc: Doc;
  fields: Field[];
  form: DocumentFormState;
  context: FormState;
  draft: string | null;
  live: string | null;
  /** Grows with every saved state shown: the schedule and versions are read again. */
  saves: number;
  /** The document is the logged-in user. */
  own: boolean;
  onRestored: (doc: Doc) => void;
}) {
  const { c, id, doc, form } = props;
  const { user, locale } = useApp();
  const isUsers = c.builtIn === 'users';
  const owner = useMemo(() => ({ collection: c.slug, id }), [c.slug, id]);
  const saveDraft = useCallback(
    (data: Doc) => docs.update(c.slug, id, data, { locale, draft: true }).then((r) => r.doc),
    [c.slug, id, locale],
  );
  const restoredNow = useRef(props.onRestored);
  restoredNow.current = props.onRestored;
  const onRestored = useCallback((d: Doc) => restoredNow.current(d), []);
  return (
    <aside class="edit-aside">
      <SidebarFields fields={props.fields} form={form} context={props.context} />
      <DocumentFacts c={c} doc={doc} draft={props.draft} live={props.live} />
      {isUsers && props.own && <LanguagePicker />}
      {isUsers && !props.own && isAdmin(user) && <UserAccountPanel user={doc.id!} label={docLabel(c, doc)} />}
      {c.drafts && <Schedule owner={owner} reloadKey={props.saves} readOnly={props.context.readOnly} />}
      {c.drafts && (
        <Versions
          owner={owner}
          fields={props.fields}
          reloadKey={props.saves}
          dirty={form.dirty}
          current={form.initial}
          saveDraft={saveDraft}
          onRestored={onRestored}
          readOnly={props.context.readOnly}
        />
      )}
    </aside>
  );
}

const DocumentFacts = renderOnChange(function DocumentFacts(props: {
  c: CollectionConfig;
  doc: Doc;
  draft: string | null;
  live: string | null;
}) {
  const { doc } = props;
  return (
    <section class="panel" aria-label={t('edit.detailsLabel')}>
      <dl class="facts">
        <div>
          <dt>{t('edit.id')}</dt>
          <dd>{String(doc.id)}</dd>
        </div>
        {props.c.drafts && (
          <div>
            <dt>{t('edit.status')}</dt>
            <dd>
              <StatusBadges draft={props.draft} live={props.live} />
            </dd>
          </div>
        )}
        <div>
          <dt>{t('edit.updated')}</dt>
          <dd>{formatDate(doc.updatedAt)}</dd>
        </div>
        <div>
          <dt>{t('edit.createdAt')}</dt>
          <dd>{formatDate(doc.createdAt)}</dd>
        </div>
      </dl>
    </section>
  );
});
