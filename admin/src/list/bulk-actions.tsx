/**
 * Actions on the selected rows of a list, through the bulk routes (docs/payload-compatibility.md): one
 * `PATCH|DELETE /:collection?where[id][in]=…` request; the server runs the single-document operation for
 * each (access, validation, versions, webhooks) and answers which ones failed. Failures are listed by
 * row and stay selected, so the editor can fix and retry them. Loaded on the first selection (list-view.tsx).
 */
import { useState } from 'preact/hooks';
import { docs, type BulkResult, type CollectionConfig, type Doc, type Field } from '../api.ts';
import { useApp } from '../app-context.ts';
import { fieldLabel, message, pluralLabel, singularLabel } from '../format.ts';
import { FieldInput } from '../form/fields.tsx';
import { dataFields, emptyValue, isReadOnly } from '../form/values.ts';
import { confirmDialog } from '../ui/confirm-dialog.tsx';
import { Modal } from '../ui/modal.tsx';
import { toast } from '../ui/toasts.tsx';
import { t } from '../i18n/i18n.ts';

type Outcome = { verb: string; failed: { id: string; title: string; message: string }[] };

const count = (c: CollectionConfig, n: number) => {
  const label = n === 1 ? singularLabel(c) : pluralLabel(c);
  return t('bulk.count', { n, label, labelLower: label.toLowerCase() });
};

/** What a bulk request did: its toast (`Published 3 posts.`) and its verb in the failure note. */
type Kind = 'publish' | 'unpublish' | 'delete' | 'update';
const doneText = (kind: Kind, count: string) =>
  kind === 'publish'
    ? t('bulk.published', { count })
    : kind === 'unpublish'
      ? t('bulk.unpublished', { count })
      : kind === 'delete'
        ? t('bulk.deleted', { count })
        : t('bulk.updated', { count });
const verbOf = (kind: Kind) =>
  kind === 'publish'
    ? t('bulk.verbPublished')
    : kind === 'unpublish'
      ? t('bulk.verbUnpublished')
      : kind === 'delete'
        ? t('bulk.verbDeleted')
        : t('bulk.verbUpdated');

/** Fields one value can be set on for many documents at once (not unique ones' worth checking here: the server does). */
const editable = (c: CollectionConfig) =>
  dataFields(c.fields).filter((f) => !isReadOnly(f) && f.type !== 'array' && f.type !== 'group' && f.type !== 'blocks');

export default function BulkActions(props: {
  collection: CollectionConfig;
  selected: string[];
  /** The row titles, to name failures. */
  titles: Map<string, string>;
  /** After a request: reload the list, keep these ids selected (the failed ones). */
  onDone: (keepSelected: string[]) => void;
}) {
  const c = props.collection;
  const { locale } = useApp();
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const n = props.selected.length;
  const where = { id: { in: props.selected.join(',') } };

  const run = async (kind: Kind, request: () => Promise<BulkResult>) => {
    setBusy(true);
    try {
      const r = await request();
      const failed = r.errors.map((e) => ({
        id: String(e.id),
        title: props.titles.get(String(e.id)) ?? `#${e.id}`,
        message: e.message,
      }));
      if (r.docs.length) toast(doneText(kind, count(c, r.docs.length)));
      setOutcome(failed.length ? { verb: verbOf(kind), failed } : null);
      props.onDone(failed.map((f) => f.id));
    } catch (e) {
      toast(message(e), 'error');
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    const ok = await confirmDialog({
      title: t('bulk.deleteTitle', { count: count(c, n) }),
      message: t('bulk.cannotUndo'),
      confirm: t('bulk.delete'),
      danger: true,
    });
    if (ok) await run('delete', () => docs.removeMany(c.slug, where));
  };

  return (
    <>
      {outcome && (
        <div class="alert error bulk-errors" role="alert">
          <p>{t('bulk.failed', { count: count(c, outcome.failed.length), verb: outcome.verb })}</p>
          <ul>
            {outcome.failed.map((f) => (
              <li key={f.id}>
                <strong>{f.title}</strong>: {f.message}
              </li>
            ))}
          </ul>
          <button type="button" class="link" onClick={() => setOutcome(null)}>
            {t('bulk.dismiss')}
          </button>
        </div>
      )}
      {n > 0 && (
        <div class="bulk-bar" role="toolbar" aria-label={t('bulk.label')}>
          <span>
            <strong>{n}</strong> {t('bulk.selected')}
          </span>
          {c.drafts && (
            <>
              <button
                type="button"
                disabled={busy}
                onClick={() =>
                  run('publish', () => docs.updateMany(c.slug, where, { status: 'published' }, { locale }))
                }
              >
                {t('bulk.publish')}
              </button>
              <button
                type="button"
                disabled={busy}
                onClick={() => run('unpublish', () => docs.updateMany(c.slug, where, { status: 'draft' }, { locale }))}
              >
                {t('bulk.unpublish')}
              </button>
            </>
          )}
          <button type="button" disabled={busy || editable(c).length === 0} onClick={() => setEditing(true)}>
            {t('bulk.editField')}
          </button>
          <button type="button" class="danger" disabled={busy} onClick={remove}>
            {t('bulk.delete')}
          </button>
          <button type="button" class="ghost" disabled={busy} onClick={() => props.onDone([])}>
            {t('bulk.clear')}
          </button>
        </div>
      )}
      {editing && (
        <BulkEditDialog
          collection={c}
          count={n}
          onClose={() => setEditing(false)}
          onSave={(data) => {
            setEditing(false);
            // Drafts collections save the change as each document's draft: nothing goes live unasked.
            void run('update', () => docs.updateMany(c.slug, where, data, { locale, draft: c.drafts }));
          }}
        />
      )}
    </>
  );
}

function BulkEditDialog(props: {
  collection: CollectionConfig;
  count: number;
  onClose: () => void;
  onSave: (data: Doc) => void;
}) {
  const fields = editable(props.collection);
  const [name, setName] = useState(fields[0]!.name);
  const field = fields.find((f) => f.name === name) as Field;
  const [value, setValue] = useState<unknown>(emptyValue(field));
  return (
    <Modal
      title={t('bulk.editTitle', { count: count(props.collection, props.count) })}
      onClose={props.onClose}
      footer={
        <>
          <button type="button" class="ghost" onClick={props.onClose}>
            {t('ui.cancel')}
          </button>
          <button type="button" class="primary" onClick={() => props.onSave({ [name]: value })}>
            {props.collection.drafts ? t('bulk.saveDrafts') : t('bulk.save')}
          </button>
        </>
      }
    >
      <div class="field">
        <label class="field-label" for="bulk-field">
          {t('bulk.fieldToSet')}
        </label>
        <select
          id="bulk-field"
          value={name}
          onChange={(e) => {
            const next = fields.find((f) => f.name === e.currentTarget.value)!;
            setName(next.name);
            setValue(emptyValue(next));
          }}
        >
          {fields.map((f) => (
            <option key={f.name} value={f.name}>
              {fieldLabel(f)}
            </option>
          ))}
        </select>
      </div>
      <FieldInput key={name} field={field} path={name} value={value} onChange={setValue} />
      <p class="muted">{props.collection.drafts ? t('bulk.everyGetsDraft') : t('bulk.everyGets')}</p>
    </Modal>
  );
}
