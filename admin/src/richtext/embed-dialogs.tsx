/**
 * The editor's small pickers, as modal dialogs: a link (a web address, or a document of any collection,
 * new tab or not) and a document to embed. Documents are found with the relationship field's searching
 * combobox; images come from the upload field's media picker (editor.tsx opens that one directly).
 */
import { useState } from 'preact/hooks';
import type { CollectionConfig, Doc } from '../api.ts';
import { findCollection, useApp } from '../app-context.ts';
import { docLabel, labelParams, pluralLabel, singularLabel } from '../format.ts';
import { DocumentCombobox } from '../form/relationship-field.tsx';
import { Modal } from '../ui/modal.tsx';
import { isAllowedLinkURL } from './lexical-json.ts';
import { t } from '../i18n/i18n.ts';

/** What the link dialog answers: a URL, or `cms-doc:<collection>/<id>` for a document (lexical-json.ts). */
export type LinkChoice = { url: string; newTab: boolean; label: string };

const INTERNAL = /^cms-doc:([a-z][\w-]*)\/(\d+)$/i;

/**
 * What text can link to or embed: the content collections first, then media; never accounts, API keys or
 * folders, which have no page of their own.
 */
export function contentCollections(all: CollectionConfig[]): CollectionConfig[] {
  const own = all.filter((c) => !c.builtIn);
  return [...own, ...all.filter((c) => c.builtIn === 'media')];
}

/** A collection chooser and a search over its documents; `id` prefixes the controls' ids. */
function DocumentChooser(props: {
  id: string;
  chosen: { slug: string; doc: Doc } | null;
  onChoose: (choice: { slug: string; doc: Doc }) => void;
}) {
  const { config, locale } = useApp();
  const collections = contentCollections(config.collections);
  const [slug, setSlug] = useState(props.chosen?.slug ?? collections[0]?.slug ?? '');
  const target = findCollection(config, slug);
  return (
    <div class="rt-doc-chooser">
      <label for={`${props.id}-collection`}>{t('rt.collection')}</label>
      <select id={`${props.id}-collection`} value={slug} onChange={(e) => setSlug(e.currentTarget.value)}>
        {collections.map((c: CollectionConfig) => (
          <option key={c.slug} value={c.slug}>
            {pluralLabel(c)}
          </option>
        ))}
      </select>
      <label for={`${props.id}-search`}>{t('rt.document')}</label>
      {target && (
        <DocumentCombobox
          key={slug}
          attrs={{ id: `${props.id}-search` }}
          target={target}
          locale={locale}
          exclude={[]}
          onPick={(doc) => props.onChoose({ slug, doc })}
          placeholder={t('rt.searchIn', labelParams(singularLabel(target)))}
        />
      )}
      {props.chosen && (
        <p class="muted small" role="status">
          {t('rt.chosen', {
            label: `${docLabel(findCollection(config, props.chosen.slug), props.chosen.doc)} (${props.chosen.slug} #${String(props.chosen.doc.id)})`,
          })}
        </p>
      )}
    </div>
  );
}

export function LinkDialog(props: {
  initial: LinkChoice | null;
  onApply: (choice: LinkChoice) => void;
  onRemove?: () => void;
  onClose: () => void;
}) {
  const internal = props.initial ? INTERNAL.exec(props.initial.url) : null;
  const [kind, setKind] = useState<'url' | 'doc'>(internal ? 'doc' : 'url');
  const [url, setUrl] = useState(internal ? '' : (props.initial?.url ?? ''));
  const [chosen, setChosen] = useState<{ slug: string; doc: Doc } | null>(
    internal ? { slug: internal[1]!, doc: { id: Number(internal[2]) } } : null,
  );
  const [newTab, setNewTab] = useState(props.initial?.newTab ?? false);
  const [error, setError] = useState<string | null>(null);
  const { config } = useApp();

  const apply = () => {
    if (kind === 'url') {
      const target = url.trim();
      if (!target || !isAllowedLinkURL(target)) return setError(t('rt.badUrl'));
      return props.onApply({ url: target, newTab, label: target });
    }
    if (!chosen) return setError(t('rt.chooseDocument'));
    props.onApply({
      url: `cms-doc:${chosen.slug}/${String(chosen.doc.id)}`,
      newTab,
      label: docLabel(findCollection(config, chosen.slug), chosen.doc),
    });
  };

  return (
    <Modal
      title={props.initial ? t('rt.editLink') : t('rt.addLink')}
      onClose={props.onClose}
      footer={
        <>
          {props.onRemove && (
            <button type="button" class="ghost" onClick={props.onRemove}>
              {t('rt.removeLink')}
            </button>
          )}
          <button type="button" class="ghost" onClick={props.onClose}>
            {t('rt.cancel')}
          </button>
          <button type="button" class="primary" onClick={apply}>
            {t('rt.applyLink')}
          </button>
        </>
      }
    >
      <form
        class="rt-dialog"
        onSubmit={(e) => {
          e.preventDefault();
          apply();
        }}
      >
        <fieldset>
          <legend>{t('rt.linkTo')}</legend>
          <label class="check">
            <input
              type="radio"
              name="rt-link-kind"
              checked={kind === 'url'}
              onChange={() => (setKind('url'), setError(null))}
            />{' '}
            {t('rt.webAddress')}
          </label>
          <label class="check">
            <input
              type="radio"
              name="rt-link-kind"
              checked={kind === 'doc'}
              onChange={() => (setKind('doc'), setError(null))}
            />{' '}
            {t('rt.aDocument')}
          </label>
        </fieldset>
        {kind === 'url' ? (
          <>
            <label for="rt-link-url">{t('rt.url')}</label>
            <input
              id="rt-link-url"
              type="text"
              inputMode="url"
              autoFocus
              value={url}
              aria-invalid={error ? 'true' : undefined}
              aria-describedby={error ? 'rt-link-error' : undefined}
              onInput={(e) => (setUrl(e.currentTarget.value), setError(null))}
              placeholder="https://example.com/"
            />
          </>
        ) : (
          <DocumentChooser id="rt-link-doc" chosen={chosen} onChoose={(c) => (setChosen(c), setError(null))} />
        )}
        <label class="check">
          <input type="checkbox" checked={newTab} onChange={(e) => setNewTab(e.currentTarget.checked)} />{' '}
          {t('rt.newTab')}
        </label>
        {error && (
          <p id="rt-link-error" class="field-error" role="alert">
            {error}
          </p>
        )}
      </form>
    </Modal>
  );
}

/** Picks a document of any collection to embed as a relationship node. */
export function DocumentDialog(props: { onPick: (slug: string, doc: Doc) => void; onClose: () => void }) {
  return (
    <Modal title={t('rt.insertADocument')} onClose={props.onClose}>
      <div class="rt-dialog">
        <DocumentChooser id="rt-embed-doc" chosen={null} onChoose={(c) => props.onPick(c.slug, c.doc)} />
      </div>
    </Modal>
  );
}
