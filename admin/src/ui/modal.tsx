import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { t } from '../i18n/i18n.ts';
import { Icon } from '../ui.tsx';

/** A modal on the native <dialog>: focus trap, Escape and the inert page come from the browser. */
/** A modal dialog (focus kept inside, Escape closes, focus returns to its opener); `drawer` slides it in at the side. */
export function Modal(props: {
  title: string;
  onClose: () => void;
  children: ComponentChildren;
  wide?: boolean;
  drawer?: boolean;
  footer?: ComponentChildren;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current!;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!d.open) d.showModal();
    return () => {
      if (d.open) d.close();
      // The browser returns focus only while the opener still exists; a choice often re-renders it
      // (the upload field's "Choose" becomes "Replace"), so look it up again by id.
      requestAnimationFrame(() => {
        const back = opener?.isConnected ? opener : opener?.id ? document.getElementById(opener.id) : null;
        if (back && (!document.activeElement || document.activeElement === document.body)) back.focus();
      });
    };
  }, []);
  return (
    <dialog
      ref={ref}
      class={`modal ${props.wide ? 'wide' : ''} ${props.drawer ? 'drawer' : ''}`}
      aria-labelledby="modal-title"
      onCancel={(e) => {
        e.preventDefault();
        props.onClose();
      }}
      onClick={(e) => {
        if (e.target === ref.current) props.onClose();
      }}
    >
      <div class="modal-head">
        <h2 id="modal-title">{props.title}</h2>
        <button type="button" class="icon-button" aria-label={t('ui.close')} onClick={props.onClose}>
          <Icon name="x" />
        </button>
      </div>
      <div class="modal-body">{props.children}</div>
      {props.footer && <div class="modal-foot">{props.footer}</div>}
    </dialog>
  );
}
