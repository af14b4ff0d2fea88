import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { t } from '../i18n/i18n.ts';
import { Modal } from './modal.tsx';

type ConfirmOptions = { title: string; message: ComponentChildren; confirm: string; cancel?: string; danger?: boolean };
type Pending = ConfirmOptions & { resolve: (ok: boolean) => void };
let openConfirm: ((p: Pending) => void) | null = null;

/** Asks a yes/no question in a modal; resolves true when confirmed. */
export function confirmDialog(options: ConfirmOptions): Promise<boolean> {
  return new Promise((resolve) => {
    if (!openConfirm)
      return resolve(window.confirm(typeof options.message === 'string' ? options.message : options.title));
    openConfirm({ ...options, resolve });
  });
}

export function ConfirmHost() {
  const [pending, setPending] = useState<Pending | null>(null);
  useEffect(() => {
    openConfirm = setPending;
    return () => {
      openConfirm = null;
    };
  }, []);
  if (!pending) return null;
  const done = (ok: boolean) => {
    setPending(null);
    pending.resolve(ok);
  };
  return (
    <Modal
      title={pending.title}
      onClose={() => done(false)}
      footer={
        <>
          <button type="button" onClick={() => done(false)}>
            {pending.cancel ?? t('ui.cancel')}
          </button>
          <button type="button" class={pending.danger ? 'danger' : 'primary'} onClick={() => done(true)} autoFocus>
            {pending.confirm}
          </button>
        </>
      }
    >
      <p>{pending.message}</p>
    </Modal>
  );
}
