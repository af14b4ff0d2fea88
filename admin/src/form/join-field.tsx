/**
 * `join`: the documents of another collection whose field `on` points at this document, as a table with
 * links, and a button that opens that collection's create form already pointing here. Read-only: the
 * join is changed by editing the documents it lists.
 */
import { useState } from 'preact/hooks';
import { docs, type CollectionConfig, type Doc, type Field } from '../api.ts';
import { findCollection, useApp } from '../app-context.ts';
import { docLabel, fieldLabel, formatDate, pluralLabel, singularLabel } from '../format.ts';
import { Link, navigate } from '../router.tsx';
import { Icon } from '../ui.tsx';
import { inputId, useForm } from './form-context.ts';
import { dataFields } from './values.ts';
import { t } from '../i18n/i18n.ts';
import { useLoad } from '../use-load.ts';

/** The relationship field at dot path `on` in `target`, when it sits at the top or inside groups. */
function fieldAt(target: CollectionConfig, on: string): Field | undefined {
  let list: Field[] = target.fields;
  let found: Field | undefined;
  for (const seg of on.split('.')) {
    found = dataFields(list).find((f) => f.name === seg);
    if (!found) return undefined;
    list = found.fields ?? [];
  }
  return found?.type === 'relationship' || found?.type === 'upload' ? found : undefined;
}

/** The value of `on` that points at `owner`, shaped as the field takes it, nested by the dot path. */
export function pointingAt(field: Field, on: string, owner: { collection: string; id: string | number }): Doc {
  const one = Array.isArray(field.relationTo) ? { relationTo: owner.collection, value: owner.id } : owner.id;
  let value: unknown = field.hasMany ? [one] : one;
  for (const seg of on.split('.').reverse()) value = { [seg]: value };
  return value as Doc;
}

export function JoinField(props: { field: Field; path: string }) {
  const { config, handOver } = useApp();
  const form = useForm();
  const owner = form.owner;
  const target = findCollection(config, props.field.collection);
  const on = props.field.on ?? '';
  const [limit, setLimit] = useState(props.field.defaultLimit ?? 10);
  const onField = target ? fieldAt(target, on) : undefined;

  const { data: result, error } = useLoad(() => {
    if (!owner || !target) return;
    const where =
      onField && Array.isArray(onField.relationTo)
        ? { and: [{ [`${on}.relationTo`]: { equals: owner.collection } }, { [`${on}.value`]: { equals: owner.id } }] }
        : { [on]: { equals: owner.id } };
    return docs.list(target.slug, { where, limit, draft: target.drafts });
  }, [owner?.collection, owner?.id, target?.slug, limit]);

  const labelId = `${inputId(props.path)}-label`;
  const create = () => {
    if (!owner || !target || !onField) return;
    handOver.give('prefill', `/collections/${target.slug}/create`, pointingAt(onField, on, owner));
    void navigate(`/collections/${target.slug}/create`);
  };

  return (
    <section class="field field-join" data-path={props.path} aria-labelledby={labelId}>
      <div class="array-head">
        <span class="field-label" id={labelId}>
          {fieldLabel(props.field)}
        </span>
        {result && <span class="muted small">{result.totalDocs} in all</span>}
      </div>
      {typeof props.field.admin?.description === 'string' && (
        <p class="field-description">{props.field.admin.description}</p>
      )}
      {!target ? (
        <p class="field-error">{t('fields.unknownCollection', { slug: String(props.field.collection) })}</p>
      ) : !owner ? (
        <p class="muted">
          {t('fields.joinSaveFirst', { label: pluralLabel(target), labelLower: pluralLabel(target).toLowerCase() })}
        </p>
      ) : error ? (
        <p class="field-error">{error}</p>
      ) : !result ? (
        <p class="muted">{t('ui.loading')}</p>
      ) : (
        <>
          {result.docs.length === 0 ? (
            <p class="muted">
              {t('fields.joinNone', { label: pluralLabel(target), labelLower: pluralLabel(target).toLowerCase() })}
            </p>
          ) : (
            <div class="table-wrap">
              <table class="join-table">
                <thead>
                  <tr>
                    <th scope="col">{singularLabel(target)}</th>
                    {target.drafts && <th scope="col">{t('edit.status')}</th>}
                    <th scope="col">{t('edit.updated')}</th>
                  </tr>
                </thead>
                <tbody>
                  {result.docs.map((d) => (
                    <tr key={String(d.id)}>
                      <td>
                        <Link to={`/collections/${target.slug}/${d.id}`}>{docLabel(target, d) || `#${d.id}`}</Link>
                      </td>
                      {target.drafts && <td>{String(d.status ?? '')}</td>}
                      <td>{formatDate(d.updatedAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {result.hasNextPage && (
            <button
              type="button"
              class="ghost small"
              onClick={() => setLimit(limit + (props.field.defaultLimit ?? 10))}
            >
              {t('fields.showMoreLeft', { n: result.totalDocs - result.docs.length })}
            </button>
          )}
        </>
      )}
      {target && owner && onField && !target.builtIn && (
        <button type="button" class="add-row" onClick={create} disabled={form.disabled}>
          <Icon name="plus" />{' '}
          {t('fields.joinNew', { label: singularLabel(target), labelLower: singularLabel(target).toLowerCase() })}
        </button>
      )}
    </section>
  );
}
