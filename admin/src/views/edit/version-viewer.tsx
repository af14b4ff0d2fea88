/**
 * One version, read-only, compared field by field with another (changed fields highlighted). Loaded on
 * demand (import() from versions-panel.tsx): only people who open a version pay for it.
 */
import { useState } from 'preact/hooks';
import type { Doc, Field, Version } from '../../api.ts';
import { dataFields, same } from '../../form/values.ts';
import { authorName, exactTime, fieldLabel, formatDate } from '../../format.ts';
import { Modal } from '../../ui/modal.tsx';
import { statusText } from './version-status.ts';
import { t, tn } from '../../i18n/i18n.ts';
import { RichTextView, UploadView } from './rich-text-view.tsx';

/** One field's value in one column: rich text as text (changes marked), uploads as pictures, the rest as text. */
function FieldValue(props: { field: Field; value: unknown; against?: unknown; newer: boolean }) {
  const f = props.field;
  if (f.type === 'richText' && props.value && typeof props.value === 'object')
    return <RichTextView value={props.value} against={props.against} newer={props.newer} />;
  if (f.type === 'upload' && typeof f.relationTo === 'string') {
    const values = Array.isArray(props.value) ? props.value : [props.value];
    return (
      <div class="version-uploads">
        {values.map((v, i) => (
          <UploadView key={i} relationTo={f.relationTo as string} value={v} />
        ))}
      </div>
    );
  }
  return <pre>{valueText(props.value)}</pre>;
}

/** A stored value as text for reading: lists and objects as indented JSON. */
export function valueText(v: unknown): string {
  if (v === null || v === undefined || v === '') return '—';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v, null, 2);
}

export function versionLabel(v: Version): string {
  return `${formatDate(v.updatedAt ?? v.createdAt)} · ${statusText(v.status)}${v.latest ? ` · ${t('versions.current')}` : ''}`;
}

export default function VersionViewer(props: {
  fields: Field[];
  version: Version;
  /** The versions it may be compared with (the panel's page). */
  others: Version[];
  onClose: () => void;
  /** null where the version may not be restored (someone else holds the lock). */
  onRestore: ((v: Version, asDraft: boolean) => void) | null;
}) {
  const onRestore = props.onRestore;
  const { version } = props;
  const choices = props.others.filter((o) => o.id !== version.id);
  const [otherId, setOtherId] = useState<string>(() => String((choices.find((o) => o.latest) ?? choices[0])?.id ?? ''));
  const other = choices.find((o) => String(o.id) === otherId);
  const doc: Doc = version.version ?? {};
  const against: Doc | null = other?.version ?? null;
  const rows = dataFields(props.fields).map((f) => ({
    f,
    a: doc[f.name],
    b: against?.[f.name],
    changed: against !== null && !same(doc[f.name], against[f.name]),
  }));
  const changedCount = rows.filter((r) => r.changed).length;
  // The panel lists versions newest first.
  const thisIsNewer = other ? props.others.indexOf(version) <= props.others.indexOf(other) : true;

  return (
    <Modal
      title={t('versions.versionOf', { date: formatDate(version.updatedAt ?? version.createdAt) })}
      onClose={props.onClose}
      wide
      footer={
        <>
          <button type="button" class="ghost" onClick={props.onClose}>
            {t('ui.close')}
          </button>
          {!version.latest && onRestore && (
            <>
              <button type="button" onClick={() => onRestore(version, true)}>
                {t('versions.restoreDraft')}
              </button>
              <button type="button" class="primary" onClick={() => onRestore(version, false)}>
                {t('versions.restore')}
              </button>
            </>
          )}
        </>
      }
    >
      <dl class="facts version-facts">
        <div>
          <dt>{t('versions.saved')}</dt>
          <dd>
            <time dateTime={String(version.updatedAt ?? version.createdAt ?? '')}>
              {exactTime(version.updatedAt ?? version.createdAt)}
            </time>
          </dd>
        </div>
        <div>
          <dt>{t('versions.byLabel')}</dt>
          <dd class="version-author">{authorName(version.author)}</dd>
        </div>
        <div>
          <dt>{t('edit.status')}</dt>
          <dd>
            <span class={`badge ${version.status === 'published' ? 'ok' : 'draft'}`}>{statusText(version.status)}</span>
            {version.latest && <span class="badge">{t('versions.current')}</span>}
          </dd>
        </div>
      </dl>
      {choices.length > 0 && (
        <label class="compare-with">
          <span class="field-label">{t('versions.compareWith')}</span>
          <select value={otherId} onChange={(e) => setOtherId(e.currentTarget.value)}>
            <option value="">{t('versions.compareNothing')}</option>
            {choices.map((o) => (
              <option key={String(o.id)} value={String(o.id)}>
                {versionLabel(o)}
              </option>
            ))}
          </select>
        </label>
      )}
      {other && (
        <p class="muted small" role="status">
          {changedCount === 0 ? t('versions.noDiff') : tn('versions.differ', changedCount)}
        </p>
      )}
      <div class="table-wrap">
        <table class="diff">
          <thead>
            <tr>
              <th scope="col">{t('versions.field')}</th>
              <th scope="col">{t('versions.thisVersion')}</th>
              {other && <th scope="col">{versionLabel(other)}</th>}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.f.name} class={r.changed ? 'changed' : ''} data-field={r.f.name}>
                <th scope="row">
                  {fieldLabel(r.f)}
                  {r.changed && <span class="badge draft">{t('versions.changed')}</span>}
                </th>
                <td>
                  <FieldValue field={r.f} value={r.a} against={other ? r.b : undefined} newer={thisIsNewer} />
                </td>
                {other && (
                  <td>
                    <FieldValue field={r.f} value={r.b} against={r.a} newer={!thisIsNewer} />
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Modal>
  );
}
