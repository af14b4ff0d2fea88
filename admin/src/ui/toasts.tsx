/** Short messages in a corner of the page: `toast()` from anywhere, `<Toasts />` once in the app. */
import { useEffect, useState } from 'preact/hooks';
import { Icon } from '../ui.tsx';

type Toast = { id: number; text: string; kind: 'ok' | 'error' | 'info' };
let toastSeq = 0;
let pushToast: ((t: Toast) => void) | null = null;

export function toast(text: string, kind: Toast['kind'] = 'ok'): void {
  pushToast?.({ id: ++toastSeq, text, kind });
}

export function Toasts() {
  const [list, setList] = useState<Toast[]>([]);
  useEffect(() => {
    pushToast = (t) => {
      setList((l) => [...l.slice(-3), t]);
      setTimeout(() => setList((l) => l.filter((x) => x.id !== t.id)), t.kind === 'error' ? 7000 : 3500);
    };
    return () => {
      pushToast = null;
    };
  }, []);
  return (
    <div class="toasts" role="status" aria-live="polite">
      {list.map((t) => (
        <div class={`toast ${t.kind}`} key={t.id}>
          {t.kind === 'ok' && <Icon name="check" />}
          {t.text}
        </div>
      ))}
    </div>
  );
}
