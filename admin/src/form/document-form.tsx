/**
 * State shared by the collection and global edit views: values vs. what was loaded, errors from the
 * server mapped onto fields, the unsaved-changes guard, Ctrl/⌘+S, and the error summary.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ApiError, type Doc, type Field } from '../api.ts';
import { useApp } from '../app-context.ts';
import { fieldLabel, formatDate, humanize, message } from '../format.ts';
import { setLeaveGuard } from '../router.tsx';
import { confirmDialog } from '../ui/confirm-dialog.tsx';
import { inputId, pathWriter, type FormState, type Writer } from './form-context.ts';
import { createFormStore, sameItems, useFormSelect, type FormStore } from './form-store.ts';
import { forgetUnsaved, keepUnsaved, readUnsaved, type UnsavedEntry } from './unsaved-store.ts';
import { changedFields, dataFields, isDirty, withDefaults } from './values.ts';
import { missingRequired } from './missing.ts';
import { t, tn } from '../i18n/i18n.ts';

/** How long after the last change typed values are kept in local storage. */
const KEEP_AFTER_MS = 400;

export interface DocumentFormState {
  /**
   * The values as they are now. Reading them while rendering does not render again when they change:
   * what shows them subscribes to `store` (useFormSelect, or a FieldList given the store).
   */
  readonly values: Doc;
  store: FormStore;
  setValues: (v: Doc | ((prev: Doc) => Doc)) => void;
  /** Field editors write through it (WriteContext): each path into the values as they are now. */
  writer: Writer;
  initial: Doc;
  /** Replace both the values and the baseline (after load or save). */
  reset: (doc: Doc) => void;
  dirty: boolean;
  busy: boolean;
  setBusy: (b: boolean) => void;
  /** Server errors by field path, and the ones that name no field. */
  fieldErrors: Record<string, string>;
  generalError: string | null;
  clientErrors: Record<string, string>;
  clearErrors: () => void;
  /** Shows a failed save: field errors inline (and focuses the first), the rest on top. */
  showError: (e: unknown) => void;
  formContext: FormState;
  /** Values typed earlier and kept in local storage (the session ended before they were saved), if they differ. */
  recovered: UnsavedEntry | null;
  restoreRecovered: () => void;
  /** Drops the kept values: after a save, or when the editor discards them. */
  forgetUnsaved: () => void;
  /** An autosave stored `sent` (changed fields): they become the baseline, what was typed since stays. */
  markSaved: (sent: Doc) => void;
}

/**
 * `storageKey` (see unsaved-store.ts) keeps typed values across a lost session. `guardLeaving` false is for a
 * form inside another (the related-document drawer): the page's own form keeps the one leave guard.
 */
export function useDocumentForm(
  fields: Field[],
  extraDirty = false,
  lockedFields?: Set<string>,
  storageKey?: string,
  guardLeaving = true,
): DocumentFormState {
  const { locale } = useApp();
  const [recovered, setRecovered] = useState<UnsavedEntry | null>(null);
  const [initial, setInitial] = useState<Doc>({});
  const store = useMemo(() => createFormStore(), []);
  const [busy, setBusy] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [generalError, setGeneralError] = useState<string | null>(null);
  const [clientErrors, setClientErrors] = useState<Record<string, string>>({});
  const focusFirst = useRef(false);
  const writer = useMemo(() => pathWriter(store.set), []);

  // The form renders again when it turns dirty or clean, not for every key.
  const changed = useFormSelect(store, (values) => isDirty(fields, values, initial));
  const dirty = extraDirty || changed;
  useLeaveGuard(guardLeaving && dirty, storageKey);

  // Kept a pause after the last change (writing the whole document on every keystroke costs a long one
  // dearly), at once when a save starts (it may be refused), and when the form goes away meanwhile.
  const pendingKeep = useRef<(() => void) | null>(null);
  useEffect(() => {
    pendingKeep.current = null;
    if (!storageKey || !changed) return;
    const write = () => {
      pendingKeep.current = null;
      keepUnsaved(storageKey, store.get());
    };
    if (busy) return write();
    pendingKeep.current = write;
    let timer = setTimeout(write, KEEP_AFTER_MS);
    const unsubscribe = store.subscribe(() => {
      clearTimeout(timer);
      pendingKeep.current = write;
      timer = setTimeout(write, KEEP_AFTER_MS);
    });
    return () => {
      unsubscribe();
      clearTimeout(timer);
    };
  }, [initial, storageKey, busy, changed]);
  useEffect(() => () => pendingKeep.current?.(), []);

  useEffect(() => {
    if (!focusFirst.current) return;
    focusFirst.current = false;
    const first = document.querySelector<HTMLElement>(
      '.field.has-error input, .field.has-error select, .field.has-error textarea, .field.has-error button',
    );
    first?.focus();
  });

  const formContext = useMemo<FormState>(
    () => ({
      errors: fieldErrors,
      disabled: busy,
      locale,
      lockedFields,
      setClientError: (path, m) =>
        setClientErrors((prev) => {
          if ((prev[path] ?? null) === m) return prev;
          const next = { ...prev };
          if (m === null) delete next[path];
          else next[path] = m;
          return next;
        }),
    }),
    [fieldErrors, busy, locale, lockedFields],
  );

  return {
    get values() {
      return store.get();
    },
    store,
    setValues: store.set,
    writer,
    initial,
    reset: (doc) => {
      const full = withDefaults(fields, doc);
      setInitial(full);
      store.set(full);
      const kept = storageKey ? readUnsaved(storageKey) : null;
      setRecovered(kept && isDirty(fields, { ...full, ...kept.values }, full) ? kept : null);
    },
    dirty,
    busy,
    setBusy,
    fieldErrors,
    generalError,
    clientErrors,
    clearErrors: () => {
      setFieldErrors({});
      setGeneralError(null);
    },
    showError: (e) => {
      if (e instanceof ApiError && e.errors.some((x) => x.field)) {
        const map: Record<string, string> = {};
        for (const x of e.errors) if (x.field) map[x.field] ??= x.message;
        setFieldErrors(map);
        const general = e.errors.filter((x) => !x.field).map((x) => x.message);
        setGeneralError(general.length ? general.join(' ') : null);
        focusFirst.current = true;
      } else {
        setFieldErrors({});
        setGeneralError(message(e));
      }
    },
    formContext,
    recovered,
    restoreRecovered: () => {
      const values = store.get();
      if (recovered) store.set({ ...values, ...changedFields(fields, { ...values, ...recovered.values }, values) });
      setRecovered(null);
    },
    forgetUnsaved: () => {
      if (storageKey) forgetUnsaved(storageKey);
      setRecovered(null);
    },
    markSaved: (sent) => setInitial((prev) => ({ ...prev, ...sent })),
  };
}

/** Offers values kept from a session that ended before they were saved. */
export function RecoveredBanner(props: { form: DocumentFormState }) {
  const r = props.form.recovered;
  if (!r) return null;
  return (
    <div class="alert warn" role="status">
      <p>{t('form.recovered', { date: formatDate(r.at) })}</p>
      <div class="alert-actions">
        <button type="button" class="primary" onClick={props.form.restoreRecovered}>
          {t('form.restoreUnsaved')}
        </button>
        <button type="button" class="ghost" onClick={props.form.forgetUnsaved}>
          {t('form.discardThem')}
        </button>
      </div>
    </div>
  );
}

/** Asks before leaving (in-app navigation, back button, reload or closing the tab) while `dirty`. */
export function useLeaveGuard(dirty: boolean, storageKey?: string): void {
  // A layout effect runs right after the render that made the form dirty, before the next click can
  // navigate away; a plain effect may run a frame later.
  useLayoutEffect(() => {
    if (!dirty) return;
    setLeaveGuard(async () => {
      const leave = await confirmDialog({
        title: t('form.leaveTitle'),
        message: t('form.leaveMessage'),
        confirm: t('form.leave'),
        cancel: t('form.stay'),
        danger: true,
      });
      // Leaving on purpose discards them; only a lost session should bring them back.
      if (leave && storageKey) forgetUnsaved(storageKey);
      return leave;
    });
    const unload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    addEventListener('beforeunload', unload);
    return () => {
      setLeaveGuard(null);
      removeEventListener('beforeunload', unload);
    };
  }, [dirty, storageKey]);
}

/** Ctrl+S / ⌘+S runs `save` instead of the browser's "save page". */
export function useSaveShortcut(save: () => void): void {
  const ref = useRef(save);
  ref.current = save;
  useEffect(() => {
    const on = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
        e.preventDefault();
        ref.current();
      }
    };
    addEventListener('keydown', on);
    return () => removeEventListener('keydown', on);
  }, []);
}

/** Finds a field's label by dotted path for the summary (`items.0.label` → "Items › 1 › Label"). */
function pathLabel(fields: Field[], path: string): string {
  const parts: string[] = [];
  let list: Field[] | null | undefined = fields;
  for (const seg of path.split('.')) {
    if (/^\d+$/.test(seg)) {
      parts.push(t('form.row', { n: Number(seg) + 1 }));
      continue;
    }
    const f: Field | undefined = list ? dataFields(list).find((x) => x.name === seg) : undefined;
    parts.push(f ? fieldLabel(f) : humanize(seg));
    list = f?.blocks ? f.blocks.flatMap((b) => b.fields) : f?.fields;
  }
  return parts.join(' › ');
}

/** A link that moves the focus to a field's input. */
function FieldLink(props: { id: string; children: ComponentChildren }) {
  return (
    <a
      href={`#${props.id}`}
      onClick={(e) => {
        e.preventDefault();
        document.getElementById(props.id)?.focus();
      }}
    >
      {props.children}
    </a>
  );
}

/** The errors of a failed save, each linking to its field (like the GOV.UK error summary); `prefix` is the fields' path prefix, if any. */
export function ErrorSummary(props: { form: DocumentFormState; fields: Field[]; prefix?: string }) {
  const id = (path: string) => inputId(props.prefix ? `${props.prefix}.${path}` : path);
  const { fieldErrors, generalError } = props.form;
  const entries = Object.entries(fieldErrors);
  if (!generalError && entries.length === 0) return null;
  return (
    <div class="alert error" role="alert">
      {generalError && <p>{generalError}</p>}
      {entries.length > 0 && (
        <>
          <p>
            <strong>{tn('form.needAttention', entries.length)}</strong>
          </p>
          <ul>
            {entries.map(([path, m]) => (
              <li key={path}>
                <FieldLink id={id(path)}>{pathLabel(props.fields, path)}</FieldLink>: {m}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

/**
 * Required fields still empty, each linking to its field: a draft is saved without them, publishing is not.
 * Shown for documents with drafts, so that autosave can go on while the editor sees what is left to do.
 */
export function MissingBeforePublish(props: {
  form: DocumentFormState;
  fields: Field[];
  visible: Record<string, boolean>;
}) {
  // Worked out again for every change, rendered again only when the list of missing fields changes.
  const missing = useFormSelect(
    props.form.store,
    (values) => missingRequired(props.fields, values, props.visible),
    sameItems,
  );
  if (missing.length === 0) return null;
  return (
    <div class="alert info missing-before-publish" role="status">
      <p>{t('form.neededToPublish')}</p>
      <ul>
        {missing.map((path) => (
          <li key={path}>
            <FieldLink id={inputId(path)}>{pathLabel(props.fields, path)}</FieldLink>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The form's context with what the view knows besides errors: which conditional fields are shown, the
 * document (for join fields), and whether someone else's lock makes it read-only.
 */
export function useFieldContext(
  form: DocumentFormState,
  extras: { visible: Record<string, boolean>; owner?: { collection: string; id: string | number }; readOnly: boolean },
): FormState {
  const base = form.formContext;
  return useMemo(
    () => ({
      ...base,
      visible: extras.visible,
      owner: extras.owner,
      disabled: base.disabled || extras.readOnly,
      readOnly: extras.readOnly,
    }),
    [base, extras.visible, extras.owner?.collection, extras.owner?.id, extras.readOnly],
  );
}
