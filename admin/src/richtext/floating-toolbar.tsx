/**
 * A small toolbar over selected text (formats and link), as Payload's editor shows: it follows the
 * selection, and goes when the selection collapses or the focus leaves the text for anything but it.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import {
  $getSelection,
  $isRangeSelection,
  BLUR_COMMAND,
  COMMAND_PRIORITY_LOW,
  SELECTION_CHANGE_COMMAND,
  type LexicalEditor,
} from 'lexical';
import { mergeRegister } from '@lexical/utils';
import { Toolbar, type ToolButton } from './toolbar.tsx';

export function FloatingToolbar(props: { editor: LexicalEditor; label: string; buttons: ToolButton[] }) {
  const { editor } = props;
  const [at, setAt] = useState<{ left: number; top: number } | null>(null);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const read = () => {
      const root = editor.getRootElement();
      const selected = editor.getEditorState().read(() => {
        const selection = $getSelection();
        return $isRangeSelection(selection) && !selection.isCollapsed() && selection.getTextContent().trim() !== '';
      });
      const dom = window.getSelection();
      if (!selected || !root || !dom?.rangeCount || !root.contains(dom.anchorNode)) return setAt(null);
      const rect = dom.getRangeAt(0).getBoundingClientRect();
      setAt({ left: rect.left + rect.width / 2, top: rect.top });
    };
    const onScroll = () => setAt((old) => (old ? (read(), old) : old));
    addEventListener('scroll', onScroll, true);
    const unregister = mergeRegister(
      editor.registerUpdateListener(read),
      editor.registerCommand(SELECTION_CHANGE_COMMAND, () => (read(), false), COMMAND_PRIORITY_LOW),
      editor.registerCommand(
        BLUR_COMMAND,
        (event) => {
          if (!box.current?.contains(event.relatedTarget as Node | null)) setAt(null);
          return false;
        },
        COMMAND_PRIORITY_LOW,
      ),
    );
    return () => {
      unregister();
      removeEventListener('scroll', onScroll, true);
    };
  }, [editor]);
  if (!at) return null;
  return (
    <div ref={box} class="rt-floating" style={{ left: `${at.left}px`, top: `${at.top}px` }}>
      <Toolbar label={props.label} buttons={props.buttons} />
    </div>
  );
}
