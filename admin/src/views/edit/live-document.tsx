/**
 * An open document follows its realtime topic (docs/admin.md, "Live updates"): without unsaved edits the
 * form shows a change made elsewhere at once; with unsaved edits it keeps what the editor typed and says
 * who changed the document, with a choice to load that change instead. The editor's own saves come back
 * through the stream too; they carry exactly the document the form already has and are ignored.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { versions, type Doc, type Version, type VersionOwner } from '../../api.ts';
import { useApp } from '../../app-context.ts';
import { useRealtime, type RealtimeEvent } from '../../realtime.ts';
import { same } from '../../form/values.ts';
import { isOwnSave, onSettled, saving } from './own-saves.ts';
import { t } from '../../i18n/i18n.ts';

export type LiveChange = { doc: Doc | null; by: string | null };

type Options = {
  owner: VersionOwner | null;
  /** Versions exist (drafts): the latest one names who saved it. */
  versioned: boolean;
  locale?: string;
  doc: Doc | null;
  dirty: boolean;
  busy: boolean;
  /** Shows `doc` in the form as the new saved state. */
  show: (doc: Doc) => void;
};

type Person = { id?: unknown; name?: unknown; email?: unknown };

function nameOf(who: unknown, me: { id: number }): string | null {
  if (!who || typeof who !== 'object') return null;
  const p = who as Person;
  if (p.id === me.id) return 'you, in another window';
  return typeof p.name === 'string' && p.name ? p.name : typeof p.email === 'string' ? p.email : null;
}

/** Who made the change: the document's `updatedBy` when it has one, else the latest version's author. */
async function authorOf(
  doc: Doc,
  owner: VersionOwner,
  versioned: boolean,
  me: { id: number },
  locale?: string,
): Promise<string | null> {
  const direct = nameOf(doc.updatedBy, me);
  if (direct || !versioned) return direct;
  const latest: Version | undefined = await versions.list(owner, 1, locale).then(
    (r) => r.docs[0],
    () => undefined,
  );
  return nameOf(latest?.author, me);
}

/** The same saved state (key order aside): an echo of a save this form already shows. */
const sameSave = (a: Doc | null, b: Doc | null): boolean => Boolean(a && b && same(a, b));

export function useLiveDocument(o: Options): { change: LiveChange | null; load: () => void; keep: () => void } {
  const { user } = useApp();
  const [change, setChange] = useState<LiveChange | null>(null);
  // An event that arrives while this form is saving is looked at once the save has answered (it is
  // probably the echo of that save).
  const held = useRef<RealtimeEvent | null>(null);
  const latest = useRef(o);
  latest.current = o;

  const consider = async (e: RealtimeEvent) => {
    const now = latest.current;
    if (!now.owner || !now.doc) return;
    // While this window's own save is on its way, an event is probably its echo: look once it answered.
    if (now.busy || saving(topic)) return void (held.current = e);
    // This window's own save (an autosave, typed over since): nothing to report, and nothing to put back.
    if (e.type !== 'delete' && (isOwnSave(topic, e.doc) || sameSave(e.doc, now.doc))) return;
    if (!now.dirty && e.doc) {
      setChange(null);
      return now.show(e.doc);
    }
    const by = e.doc ? await authorOf(e.doc, now.owner, now.versioned, user, now.locale) : null;
    setChange({ doc: e.doc, by });
  };

  const topic =
    o.owner && 'collection' in o.owner
      ? `${o.owner.collection}/${o.owner.id}`
      : o.owner
        ? `globals/${o.owner.global}`
        : '';
  useRealtime(topic ? [topic] : [], (e) => void consider(e), o.locale);

  const considerHeld = () => {
    if (latest.current.busy || saving(topic) || !held.current) return;
    const e = held.current;
    held.current = null;
    void consider(e);
  };
  useEffect(considerHeld, [o.busy]);
  useEffect(() => onSettled((settledTopic) => settledTopic === topic && considerHeld()), [topic]);
  // A save of the editor's own settles the question.
  useEffect(() => {
    if (change && sameSave(change.doc, o.doc)) setChange(null);
  }, [o.doc]);

  return {
    change,
    load: () => {
      if (change?.doc) o.show(change.doc);
      setChange(null);
    },
    keep: () => setChange(null),
  };
}

/** The notice above the form; "Keep editing" leaves the typed values, to be saved over the change. */
export function LiveChangeNotice(props: { change: LiveChange | null; load: () => void; keep: () => void }) {
  const c = props.change;
  if (!c) return null;
  const who = c.by ? t('live.changedBy', { name: c.by }) : t('live.changedElsewhere');
  return (
    <div class="alert warn" role="alert">
      {c.doc ? (
        <>
          <p>
            <strong>{who}</strong> {t('live.whileEditing')}
          </p>
          <div class="alert-actions">
            <button type="button" onClick={props.load}>
              {t('live.load')}
            </button>
            <button type="button" class="ghost" onClick={props.keep}>
              {t('live.keep')}
            </button>
          </div>
        </>
      ) : (
        <p>
          <strong>{t('live.deleted')}</strong> {t('live.deletedNote')}
        </p>
      )}
    </div>
  );
}
