/**
 * The "Add to release…" entry of a document's or global's menu, where releases are turned on, and the
 * dialog it opens (fetched on first use). The dialog sits outside the menu, which closes on a choice.
 */
import { useState } from 'preact/hooks';
import { useApp } from '../../app-context.ts';
import { LazyView } from '../../lazy.tsx';
import type { ReleaseTarget } from './release-api.ts';
import { Icon } from '../../ui.tsx';
import { t } from '../../i18n/i18n.ts';

const dialog = () => import('./add-to-release.tsx');

/** `target` null: nothing to add yet (a document not saved, a collection without drafts). */
export function useAddToRelease(target: ReleaseTarget | null, disabled = false) {
  const { config } = useApp();
  const [open, setOpen] = useState(false);
  if (!target || !config.features?.releases) return { item: null, dialog: null };
  return {
    item: (
      <button type="button" class="ghost" onClick={() => setOpen(true)} disabled={disabled}>
        <Icon name="clock" /> {t('releases.addToRelease')}
      </button>
    ),
    dialog: open ? <LazyView load={dialog} props={{ target, onClose: () => setOpen(false) }} /> : null,
  };
}
