/**
 * The "/" menu: typing "/" at the start of a line or after a space opens a list of what can be inserted
 * (headings, lists, quote, image, document, the field's blocks), filtered by the letters typed after it.
 * Arrow keys choose, Enter or Tab inserts (the "/" and its letters go), Escape closes it; the caret stays
 * in the text the whole time.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import {
  $getNodeByKey,
  $getSelection,
  $isRangeSelection,
  $isTextNode,
  COMMAND_PRIORITY_HIGH,
  KEY_ARROW_DOWN_COMMAND,
  KEY_ARROW_UP_COMMAND,
  KEY_ENTER_COMMAND,
  KEY_ESCAPE_COMMAND,
  KEY_TAB_COMMAND,
  type LexicalEditor,
} from 'lexical';
import { mergeRegister } from '@lexical/utils';
import { t } from '../i18n/i18n.ts';

export type SlashItem = { label: string; run: () => void };
type Trigger = { query: string; left: number; top: number };

const TRIGGER = /(?:^|\s)\/([\p{L}\p{N} ]{0,24})$/u;

/** The "/" and letters before the caret, when the caret is right after them. */
function $readTrigger(): { query: string; key: string; offset: number } | null {
  const selection = $getSelection();
  if (!$isRangeSelection(selection) || !selection.isCollapsed() || selection.anchor.type !== 'text') return null;
  const node = selection.anchor.getNode();
  if (!$isTextNode(node)) return null;
  const before = node.getTextContent().slice(0, selection.anchor.offset);
  const match = TRIGGER.exec(before);
  return match ? { query: match[1]!, key: node.getKey(), offset: selection.anchor.offset } : null;
}

const matches = (item: SlashItem, query: string) =>
  query.trim() === '' || item.label.toLowerCase().includes(query.trim().toLowerCase());

/** What the key commands (registered once) read of the menu as last drawn. */
type Live = { open: boolean; count: number; choose(): void; close(): void };

export function SlashMenu(props: { editor: LexicalEditor; id: string; items: SlashItem[] }) {
  const { editor } = props;
  const [trigger, setTrigger] = useState<Trigger | null>(null);
  const [active, setActive] = useState(0);
  /** The query the menu was closed at (Escape): it stays closed until the "/" is gone or the query changes. */
  const [closedAt, setClosedAt] = useState<string | null>(null);
  const live = useRef<Live>({ open: false, count: 0, choose() {}, close() {} });
  const shown = trigger ? props.items.filter((item) => matches(item, trigger.query)) : [];
  const open = trigger !== null && closedAt !== trigger.query && shown.length > 0;
  const at = Math.min(active, Math.max(shown.length - 1, 0));

  /** Removes the "/" and its letters, then runs the item. */
  const choose = (item: SlashItem | undefined) => {
    if (!item) return;
    editor.update(
      () => {
        const found = $readTrigger();
        const node = found ? $getNodeByKey(found.key) : null;
        if (found && $isTextNode(node))
          node.spliceText(found.offset - found.query.length - 1, found.query.length + 1, '', true);
      },
      { discrete: true },
    );
    setTrigger(null);
    item.run();
  };
  live.current = {
    open,
    count: shown.length,
    choose: () => choose(shown[at]),
    close: () => setClosedAt(trigger?.query ?? null),
  };

  useEffect(() => {
    const read = () => {
      const found = editor.getEditorState().read($readTrigger);
      if (!found) {
        setTrigger(null);
        setClosedAt(null);
        return;
      }
      const selection = window.getSelection();
      const rect = selection?.rangeCount ? selection.getRangeAt(0).getBoundingClientRect() : null;
      setTrigger((old) =>
        old?.query === found.query ? old : { query: found.query, left: rect?.left ?? 0, top: (rect?.bottom ?? 0) + 4 },
      );
      setActive(0);
    };
    const key = (run: () => void) => (event: KeyboardEvent | null) => {
      if (!live.current.open) return false;
      event?.preventDefault();
      run();
      return true;
    };
    const move = (by: number) => () =>
      setActive((i) => (i + by + live.current.count) % Math.max(live.current.count, 1));
    return mergeRegister(
      editor.registerUpdateListener(read),
      editor.registerCommand(KEY_ARROW_DOWN_COMMAND, key(move(1)), COMMAND_PRIORITY_HIGH),
      editor.registerCommand(KEY_ARROW_UP_COMMAND, key(move(-1)), COMMAND_PRIORITY_HIGH),
      editor.registerCommand(
        KEY_ENTER_COMMAND,
        key(() => live.current.choose()),
        COMMAND_PRIORITY_HIGH,
      ),
      editor.registerCommand(
        KEY_TAB_COMMAND,
        key(() => live.current.choose()),
        COMMAND_PRIORITY_HIGH,
      ),
      editor.registerCommand(
        KEY_ESCAPE_COMMAND,
        key(() => live.current.close()),
        COMMAND_PRIORITY_HIGH,
      ),
    );
  }, [editor]);

  // The caret stays in the text: the text box names the menu and its chosen option.
  useEffect(() => {
    const root = editor.getRootElement();
    if (!root) return;
    if (open) {
      root.setAttribute('aria-controls', props.id);
      root.setAttribute('aria-activedescendant', `${props.id}-${at}`);
    } else {
      root.removeAttribute('aria-controls');
      root.removeAttribute('aria-activedescendant');
    }
  }, [open, at]);

  if (!open || !trigger) return null;
  return (
    <ul
      class="rt-slash-menu"
      role="listbox"
      id={props.id}
      aria-label={t('rt.slashMenu')}
      style={{ left: `${trigger.left}px`, top: `${trigger.top}px` }}
    >
      {shown.map((item, i) => (
        <li
          key={item.label}
          id={`${props.id}-${i}`}
          role="option"
          aria-selected={i === at}
          onMouseDown={(e) => {
            e.preventDefault();
            choose(item);
          }}
        >
          {item.label}
        </li>
      ))}
    </ul>
  );
}
