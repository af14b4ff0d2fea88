/**
 * Menus built on `<details>` (the Columns menu, the edit view's "More actions"): they close on Escape
 * (focus returns to the button) and on a click outside, as people expect of a menu.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { Icon } from './ui.tsx';

/** Closes the `<details>` behind `ref` on Escape and on a pointer press outside it. */
export function useDismissableDetails() {
  const ref = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const el = ref.current;
      if (e.key !== 'Escape' || !el?.open) return;
      el.open = false;
      el.querySelector('summary')?.focus();
      e.stopPropagation();
    };
    const onPointer = (e: PointerEvent) => {
      const el = ref.current;
      if (el?.open && !el.contains(e.target as Node)) el.open = false;
    };
    document.addEventListener('keydown', onKey, true);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey, true);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, []);
  return ref;
}

/** A "⋯" button opening a list of actions; choosing one closes the menu. */
export function MoreActions(props: { label: string; children: ComponentChildren }) {
  const ref = useDismissableDetails();
  return (
    <details class="popup-menu more-actions" ref={ref}>
      <summary class="button ghost" role="button" aria-label={props.label} title={props.label}>
        <Icon name="dots" />
      </summary>
      <div class="menu-panel" onClick={() => ref.current && (ref.current.open = false)}>
        {props.children}
      </div>
    </details>
  );
}
