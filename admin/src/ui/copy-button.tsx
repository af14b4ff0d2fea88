import { t } from '../i18n/i18n.ts';
import { Icon } from '../ui.tsx';
import { toast } from './toasts.tsx';

/** Copies `text` to the clipboard (secure contexts: https, localhost, 127.0.0.1) and says so. */
export function CopyButton(props: { text: string; label: string; copied?: string }) {
  return (
    <button
      type="button"
      class="icon-button"
      aria-label={props.label}
      title={props.label}
      onClick={() => {
        const done = () => toast(props.copied ?? t('ui.copied'));
        const refused = () => toast(t('ui.copyRefused'), 'error');
        if (navigator.clipboard) navigator.clipboard.writeText(props.text).then(done, refused);
        else refused();
      }}
    >
      <Icon name="copy" />
    </button>
  );
}
