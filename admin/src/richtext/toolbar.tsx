/**
 * The editor's toolbar buttons: drawn with the admin's own line icons (SVG, so no emoji font is needed),
 * named by what they show. The toolbar is one tab stop: arrow keys, Home and End move between its buttons
 * (a roving tab index, as toolbars do), and Tab leaves it.
 */
import type { ComponentChildren } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { Icon } from '../ui.tsx';

/** The toolbar's icons, 16 px line drawings in the admin's icon style. */
export const RT_ICONS = {
  h1: 'M2 3.5v9M7 3.5v9M2 8h5M10.5 5.5l2-2v9',
  h2: 'M2 3.5v9M7 3.5v9M2 8h5M10 5.2a1.8 1.8 0 0 1 3.5.5c0 1.6-3.5 3.4-3.5 6.8h3.7',
  h3: 'M2 3.5v9M7 3.5v9M2 8h5M10 3.5h3.5l-2.2 3.2a2.6 2.6 0 1 1-1.5 4.9',
  bold: 'M4.5 2.5h4.2a2.6 2.6 0 0 1 0 5.2H4.5zM4.5 7.7h4.9a2.9 2.9 0 0 1 0 5.8H4.5z',
  italic: 'M7 2.5h5M4 13.5h5M10 2.5L6.5 13.5',
  underline: 'M4.5 2.5v5a3.5 3.5 0 0 0 7 0v-5M3.5 14h9',
  strikethrough:
    'M2.5 8h11M11 4.5c-.5-1.3-1.7-2-3.2-2-1.9 0-3.3 1-3.3 2.6 0 1 .6 1.7 1.6 2.2M5 11.5c.5 1.3 1.7 2 3.2 2 1.9 0 3.3-1 3.3-2.6',
  code: 'M5.5 4.5L2 8l3.5 3.5M10.5 4.5L14 8l-3.5 3.5',
  bullet: 'M6 4h8M6 8h8M6 12h8M2.5 4h.01M2.5 8h.01M2.5 12h.01',
  number: 'M6.5 4h7.5M6.5 8h7.5M6.5 12h7.5M2 2.8l1-.8v4M1.8 9.5a1 1 0 0 1 1.9.4c0 .8-1.9 1.6-1.9 3.1h2',
  check: 'M2 3h3v3H2zM2 10.8l1 1 1.8-2M7.5 4.5h6.5M7.5 11h6.5',
  quote: 'M3 7.5h3.5v4H3zM3 7.5c0-2 .8-3.2 2.5-4M9.5 7.5H13v4H9.5zM9.5 7.5c0-2 .8-3.2 2.5-4',
  link: 'M6.8 9.2a2.8 2.8 0 0 0 4 0l2-2a2.8 2.8 0 0 0-4-4l-.8.8M9.2 6.8a2.8 2.8 0 0 0-4 0l-2 2a2.8 2.8 0 0 0 4 4l.8-.8',
  image: 'M2.5 3h11v10h-11zM2.5 11l3.5-3.5 3 3 2-2 2.5 2.5M10.5 6.2h.01',
  document: 'M4 1.5h5l3.5 3.5v9.5H4zM9 1.5V5h3.5M6 9h4M6 11.5h4',
  block: 'M2.5 2.5h11v11h-11zM2.5 6h11',
  inlineBlock: 'M1.5 5.5h13v5h-13zM4.5 8h7',
  undo: 'M5.5 3.5l-3 3 3 3M2.5 6.5h7a3.5 3.5 0 0 1 0 7H7',
  redo: 'M10.5 3.5l3 3-3 3M13.5 6.5h-7a3.5 3.5 0 0 0 0 7H9',
} as const;
export type RtIcon = keyof typeof RT_ICONS;

export type ToolButton = {
  label: string;
  icon: RtIcon;
  /** Whether it is on (a format, a block type); null for plain actions. */
  pressed: boolean | null;
  onClick: () => void;
  disabled?: boolean;
};

/** One icon button; `tabIndex` is set by the toolbar it sits in. */
export function ToolbarButton(props: ToolButton & { tabIndex?: number; index?: number }) {
  return (
    <button
      type="button"
      class="rt-button"
      aria-label={props.label}
      title={props.label}
      aria-pressed={props.pressed === null ? undefined : props.pressed}
      disabled={props.disabled}
      tabIndex={props.tabIndex}
      data-index={props.index}
      onMouseDown={(e) => e.preventDefault()}
      onClick={props.onClick}
    >
      <Icon name="" d={RT_ICONS[props.icon]} />
    </button>
  );
}

const MOVES: Record<string, (i: number, n: number) => number> = {
  ArrowRight: (i, n) => (i + 1) % n,
  ArrowDown: (i, n) => (i + 1) % n,
  ArrowLeft: (i, n) => (i - 1 + n) % n,
  ArrowUp: (i, n) => (i - 1 + n) % n,
  Home: () => 0,
  End: (_, n) => n - 1,
};

/** A row of tool buttons that takes one tab stop; arrows move between the enabled ones. */
export function Toolbar(props: { label: string; class?: string; buttons: ToolButton[]; children?: ComponentChildren }) {
  const [current, setCurrent] = useState(0);
  const element = useRef<HTMLDivElement>(null);
  // The tab stop stays on an enabled button (undo is disabled until there is something to undo).
  const stop =
    props.buttons[current] && !props.buttons[current]!.disabled ? current : props.buttons.findIndex((b) => !b.disabled);
  const onKeyDown = (e: KeyboardEvent) => {
    const move = MOVES[e.key];
    if (!move) return;
    const enabled = [
      ...(element.current?.querySelectorAll<HTMLButtonElement>('button.rt-button:not(:disabled)') ?? []),
    ];
    if (enabled.length === 0) return;
    e.preventDefault();
    const at = enabled.indexOf(document.activeElement as HTMLButtonElement);
    const next = enabled[move(Math.max(at, 0), enabled.length)]!;
    setCurrent(Number(next.dataset.index));
    next.focus();
  };
  return (
    <div
      ref={element}
      class={props.class ?? 'rt-toolbar'}
      role="toolbar"
      aria-label={props.label}
      onKeyDown={onKeyDown}
    >
      {props.buttons.map((b, i) => (
        <ToolbarButton key={b.label} {...b} index={i} tabIndex={i === stop ? 0 : -1} />
      ))}
      {props.children}
    </div>
  );
}
